import { describe, expect, it } from "vitest";
import committed from "@/openapi.json";
import { useTestGateway } from "../support/test-gateway";

/**
 * Issue 14: /docs is the reference rendered from openapi.json, and /docs/first-payment the
 * guide. Both are plain HTML: no script (nothing to leak into the hosted pages, nothing for
 * the CSP to allow) and no inline style attribute (the CSP's style-src would block it); their
 * one stylesheet carries the request's nonce.
 */

const { api } = useTestGateway();

describe("the API reference at /docs", () => {
  it("shows every operation, the notifications and the quirks, with no script and a nonce'd stylesheet", async () => {
    const response = await api.get("/docs", { "x-nonce": "test-nonce" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html: string = response.body;
    for (const path of Object.keys(committed.paths)) expect(html).toContain(`<code>${path}</code>`);
    for (const type of Object.keys(committed.webhooks)) expect(html).toContain(type);
    expect(html).toContain("Interface quirks kept for compatibility");
    expect(html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(html).not.toMatch(/<script|\sstyle="|\son\w+=/i);
    expect(html.match(/<style[^>]*>/g)).toEqual(['<style nonce="test-nonce">']);
  });

  it("serves the first-payment guide it links to", async () => {
    const response = await api.get("/docs/first-payment");
    expect(response.status).toBe(200);
    expect(response.body).toContain("<h1>Take your first payment (sandbox, curl)</h1>");
    expect(response.body).not.toMatch(/<script/i);
  });
});
