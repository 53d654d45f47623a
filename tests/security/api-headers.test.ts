import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/proxy";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

/**
 * Every API answer is never sniffed as HTML nor framed (nosniff and a CSP of `default-src 'none';
 * frame-ancestors 'none'`): successes, errors, unknown paths, refused methods, probes, the
 * OpenAPI document. The API sets them itself; the proxy (which would cost each request
 * a tenth of its CPU) runs for pages only.
 */
const { api } = useTestGateway();
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  merchant = await createMerchant();
});

function expectApiHeaders(response: { headers: Headers }, what: string) {
  expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(response.headers.get("content-security-policy"), what).toBe("default-src 'none'; frame-ancestors 'none'");
}

describe("API responses carry their own security headers", () => {
  it("on a success, an error, an unknown path, a refused method, a probe and the OpenAPI document", async () => {
    const created = await api.post(
      "/api/v1/customers",
      { name: "Headers", phone: randomPhone() },
      clientAuth(merchant),
    );
    expect(created.status).toBe(201);
    expectApiHeaders(created, "201");
    const unauthenticated = await api.get("/api/v1/payments/intents/00000000-0000-4000-8000-000000000000/check");
    expect(unauthenticated.status).toBe(401);
    expectApiHeaders(unauthenticated, "401");
    for (const path of ["/api/v1/no-such-thing", "/api/no-such-thing"]) {
      const unknown = await api.get(path);
      expect(unknown.status, path).toBe(404);
      expect(unknown.body.error.name, path).toBe("not_found");
      expectApiHeaders(unknown, path);
    }
    const refused = await api.call("PATCH", "/api/v1/payments/intents");
    expect(refused.status).toBe(405);
    expectApiHeaders(refused, "405");
    const health = await api.get("/api/health");
    expect(health.status).toBe(200);
    expectApiHeaders(health, "health");
    const document = await api.get("/api/v1/openapi.json");
    expect(document.status).toBe(200);
    expectApiHeaders(document, "openapi.json");
  });

  it("without the proxy running for the API", () => {
    for (const url of ["/api/v1/payments/intents", "/api/health", "/api"]) {
      expect(unstable_doesMiddlewareMatch({ config, url }), url).toBe(false);
    }
  });
});
