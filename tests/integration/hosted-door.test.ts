import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTED_LANE } from "@/app/[locale]/hosted-lane-pages";
import { createMerchant } from "../support/factories";
import { createIntent, proceedToOtp } from "../support/payments";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";
import { useTestGateway } from "../support/test-gateway";

/**
 * The hosted buyer pages held by their one door: the real `npm start` entry (server/serve.mjs),
 * where the hosted lane (lib/hosted/hosted-lane.ts) serves them. The contract's behaviour of the
 * path family is the lane's own: the page in its language with the pages' headers and a fresh
 * nonce on its stylesheet and island scripts, no Next.js runtime; HEAD; a trailing slash; an
 * encoded segment; the neutral 404; a short checkout address in the buyer's language; a post to a
 * page refused (proxy.ts, under Next.js).
 */

const { api } = useTestGateway();
let gateway: SpawnedGateway;
let baseUrl: string;
let otpPath: string;
/** A fresh intent's checkoutUrl (no language), as its path and query. */
let checkoutPath: string;

const get = (path: string, init: RequestInit = {}) => fetch(baseUrl + path, { redirect: "manual", ...init });

beforeAll(async () => {
  const merchant = await createMerchant();
  const paid = await createIntent(api, merchant);
  const token = await proceedToOtp(api, merchant, paid.paymentId);
  otpPath = `/fr/pay/otp/${paid.paymentId}?token=${encodeURIComponent(token)}`;
  const { checkoutUrl } = (await createIntent(api, merchant)) as unknown as { checkoutUrl: string };
  checkoutPath = new URL(checkoutUrl).pathname + new URL(checkoutUrl).search;
  const port = await freePort();
  gateway = await spawnGateway(port, { GATEWAY_BACKGROUND_JOBS: "off" });
  baseUrl = `http://127.0.0.1:${port}`;
}, 900_000);

afterAll(() => {
  if (gateway && gateway.process.exitCode === null) gateway.process.kill("SIGKILL");
});

describe("the hosted pages' door (npm start)", () => {
  it("serves a page in its language, headers, stylesheet, islands under one nonce, no Next.js runtime", async () => {
    const response = await get(otpPath);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(policy).not.toContain("unsafe-eval");
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).toMatch(
      /<script type="module" src="\/islands\/resend-countdown-[^"]+\.js" nonce="[^"]+" data-island="resend-countdown">/,
    );
    expect(html).toContain(`nonce="${nonce}" data-island="resend-countdown"`);
    expect(html).not.toMatch(/\/_next\/|__next_f/);
    expect((await get(otpPath)).headers.get("content-security-policy")).not.toContain(`'nonce-${nonce}'`);
  });

  it("answers HEAD with the page's headers and no body", async () => {
    const response = await get(otpPath, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toMatch(/'nonce-/);
    expect(await response.text()).toBe("");
  });

  it("sends a trailing slash to the address without it, query kept", async () => {
    const [path, query] = otpPath.split("?");
    const response = await get(`${path}/?${query}`);
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe(otpPath);
  });

  it("answers an unknown payment, wrong token or encoded unknown id with the neutral 404, localized", async () => {
    for (const path of [
      "/ar/pay/otp/nope",
      `${otpPath.split("?")[0]}?token=wrong`,
      "/en/pay/checkout/a%20b",
      "/en/l/nope",
    ]) {
      const response = await get(path);
      const html = await response.text();
      expect(response.status, path).toBe(404);
      expect(html, path).toContain(`<html lang="${path.slice(1, 3)}"`);
      expect(response.headers.get("content-security-policy"), path).toMatch(/'nonce-/);
      expect(response.headers.get("cache-control"), path).toContain("no-store");
    }
  });

  it("answers every lane page, not found too, with headers forbidding framing, caching, token leaks", async () => {
    for (const family of Object.keys(HOSTED_LANE.pages)) {
      const path =
        `/en/${family}/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c?token=abc` +
        `&returnUrl=${encodeURIComponent("https://evil.example/")}`;
      const response = await get(path, { headers: { "sec-fetch-dest": "iframe" } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-security-policy"), path).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/);
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("cache-control"), path).toContain("no-store");
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("serves a checkoutUrl in the buyer's language at once", async () => {
    const response = await get(checkoutPath, { headers: { "accept-language": "ar-DZ,ar;q=0.9" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<html lang="ar" dir="rtl">');
  });

  it("leaves a post to a page to Next.js's proxy, which refuses it (400)", async () => {
    const response = await get(otpPath, {
      method: "POST",
      body: "x=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(400);
  });
});
