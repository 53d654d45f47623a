import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useTestGateway } from "../support/test-gateway";

/**
 * The tests' server (tests/support/gateway-server.ts) answers through the production door
 * (server/door.mjs) and the lanes npm start's bundle is built with: what an integration test
 * meets is what a merchant's server and a buyer's browser meet, Next.js's own pages aside (a
 * build serves those: tests/integration/*-door.test.ts).
 */
const gateway = useTestGateway();
const SOME_PAYMENT = "3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c";

describe("the tests' server is the production door", () => {
  it("serves a console page through the console lane, with the pages' headers", async () => {
    const response = await fetch(`${gateway.baseUrl}/fr/console/sign-in`, { redirect: "manual" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toMatch(/script-src [^;]*'nonce-/);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const html = await response.text();
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).not.toMatch(/\/_next\/|__next_f/);
  });

  it("serves a hosted page through the hosted lane: an unknown payment gets the neutral 404 page", async () => {
    const response = await fetch(`${gateway.baseUrl}/ar/pay/otp/${SOME_PAYMENT}?token=nope`, { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(await response.text()).toContain('<html lang="ar" dir="rtl">');
  });

  it("hands the page-side route files what Next.js serves in production (the API reference)", async () => {
    const response = await fetch(`${gateway.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("compresses an answer of 1 KB or more for a client that accepts gzip, as npm start does", async () => {
    const answer = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL("/api/v1/openapi.json", gateway.baseUrl);
      request(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(answer.body).toString("utf8")).openapi).toBe("3.1.0");
  });
});
