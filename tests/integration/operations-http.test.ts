import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { discoverApiRoutes, fillPattern } from "../support/security/discover-routes";
import { createMerchant } from "../support/factories";
import { browserHeaders, check, createIntent, intentBody, serverHeaders } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const SOME_UUID = "00000000-0000-4000-8000-000000000000";

describe("wrong method (contract 12)", () => {
  it("answers GET /payments/intents with 405 method_not_allowed in the envelope and an Allow header", async () => {
    const response = await api.get("/api/v1/payments/intents");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(response.body).toMatchObject({
      code: 405,
      status: "error",
      message: "GET is not allowed here; this path serves POST, OPTIONS.",
      error: { name: "method_not_allowed", requestId: response.headers.get("x-request-id") },
    });
  });

  it("answers every known /api/v1 path called with a method it does not serve with 405 and its Allow", async () => {
    const routes = (await discoverApiRoutes()).filter(
      (route) => !route.pattern.endsWith("*") && route.pattern !== "/api/v1",
    );
    const served = new Map<string, string[]>();
    for (const route of routes) served.set(route.pattern, [...(served.get(route.pattern) ?? []), route.method]);
    expect(served.size).toBeGreaterThan(20);
    for (const [pattern, methods] of served) {
      const path = fillPattern(pattern, { id: SOME_UUID, paymentId: SOME_UUID, phone: "+213555000000" });
      for (const method of ROUTE_METHODS.filter((m) => !methods.includes(m))) {
        const response = await api.call(method, path);
        expect(response.status, `${method} ${pattern}`).toBe(405);
        expect(response.body?.error?.name, `${method} ${pattern}`).toBe("method_not_allowed");
        const allow = response.headers.get("allow")?.split(", ") ?? [];
        for (const m of methods) expect(allow, `${method} ${pattern}`).toContain(m);
      }
    }
  });

  it("answers OPTIONS on every known path with 204 and the same Allow as its 405", async () => {
    const routes = (await discoverApiRoutes()).filter(
      (route) => !route.pattern.endsWith("*") && route.pattern !== "/api/v1",
    );
    const patterns = new Set(routes.map((route) => route.pattern));
    for (const pattern of patterns) {
      const path = fillPattern(pattern, { id: SOME_UUID, paymentId: SOME_UUID, phone: "+213555000000" });
      const options = await api.call("OPTIONS", path);
      expect(options.status, pattern).toBe(204);
      const refused = await api.call(
        routes.some((r) => r.pattern === pattern && r.method === "PUT") ? "PATCH" : "PUT",
        path,
      );
      expect(options.headers.get("allow"), pattern).toBe(refused.headers.get("allow"));
      expect(options.headers.get("access-control-allow-origin"), pattern).toBeNull();
    }
  });

  it("still answers an unknown path with 404 not_found, whatever the method", async () => {
    const response = await api.call("PATCH", "/api/v1/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.body.error.name).toBe("not_found");
  });
});

describe("health (contract 12)", () => {
  it("answers GET /api/health with 200 {status: ok} and no auth", async () => {
    const response = await api.get("/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers GET /api/health/ready with 200 when the database answers and every migration is applied", async () => {
    const response = await api.get("/api/health/ready");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });
  });

  it("answers 503 when a shipped migration is not recorded as applied", async () => {
    const db = await getDb();
    await db.execute(
      sql`create table if not exists drizzle.__held_migration as
        select * from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    await db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    try {
      const response = await api.get("/api/health/ready");
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: "unavailable", checks: { database: "ok", migrations: "pending" } });
      expect(response.headers.get("retry-after")).toBe("5");
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations select * from drizzle.__held_migration`);
      await db.execute(sql`drop table drizzle.__held_migration`);
    }
    expect((await api.get("/api/health/ready")).status).toBe(200);
  });
});

describe("a merchant's web page calling the API from its own origin (merchant_auth, CORS)", () => {
  const checkPath = (paymentId: string) => `/api/v1/payments/intents/${paymentId}/check`;

  it("answers preflights: any origin, the route's methods, every header the API reads, cached 2 hours", async () => {
    const preflight = await api.call("OPTIONS", checkPath(SOME_UUID), {
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, x-client-secret, x-platform",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const allowedHeaders = preflight.headers.get("access-control-allow-headers")?.split(", ") ?? [];
    for (const header of [
      "authorization",
      "x-client-secret",
      "x-platform",
      "x-locale",
      "content-type",
      "idempotency-key",
    ])
      expect(allowedHeaders).toContain(header);
    expect(preflight.headers.get("access-control-max-age")).toBe("7200");
  });

  it("lets the page read the answer, request id and limits, and refusal of an origin off the allow-list", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const fromShop = await check(
      api,
      intent.paymentId,
      browserHeaders(merchant, intent.clientSecret, { origin: "https://shop.example" }),
    );
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = fromShop.headers.get("access-control-expose-headers")?.split(", ") ?? [];
    for (const header of ["x-request-id", "ratelimit", "ratelimit-policy", "retry-after"])
      expect(exposed).toContain(header);

    const elsewhere = await check(
      api,
      intent.paymentId,
      browserHeaders(merchant, intent.clientSecret, { origin: "https://evil.example" }),
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.name).toBe("origin_not_allowed");
    expect(elsewhere.headers.get("access-control-allow-origin")).toBe("*");

    // A merchant's server sends no Origin: no CORS headers.
    const fromServer = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(fromServer.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers browsers on merchant_auth only: no preflight or readable answer on client_auth, user_auth", async () => {
    const preflight = (path: string, method: string) =>
      api.call("OPTIONS", path, {
        headers: {
          origin: "https://shop.example",
          "access-control-request-method": method,
          "access-control-request-headers": "authorization",
        },
      });
    const browserRoutes = [
      [checkPath(SOME_UUID), "GET"],
      [`/api/v1/payments/intents/${SOME_UUID}/proceed`, "POST"],
      ["/api/v1/payment-methods", "GET"],
      ["/api/v1/payment-methods/card-provider/pk", "GET"],
    ] as const;
    for (const [path, method] of browserRoutes)
      expect((await preflight(path, method)).headers.get("access-control-allow-origin"), path).toBe("*");
    const serverRoutes = [
      ["/api/v1/payments/intents", "POST"],
      [`/api/v1/payments/intents/${SOME_UUID}/capture`, "POST"],
      [`/api/v1/payments/${SOME_UUID}/refund`, "POST"],
      ["/api/v1/customers", "POST"],
      ["/api/v1/events", "GET"],
      ["/api/v1/cards", "GET"],
    ] as const;
    for (const [path, method] of serverRoutes) {
      const refused = await preflight(path, method);
      expect(refused.status, path).toBe(204);
      expect(refused.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(refused.headers.get("access-control-allow-headers"), path).toBeNull();
    }
    // A client_auth call that carries an Origin anyway (a page holding the server's secret) is answered, but not
    // to the page.
    const merchant = await createMerchant();
    const created = await api.post(
      "/api/v1/payments/intents?countryCode=DZA",
      intentBody(),
      serverHeaders(merchant, { origin: "https://shop.example" }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBeNull();
  });
});
