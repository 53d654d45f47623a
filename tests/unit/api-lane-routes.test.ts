import { describe, expect, it } from "vitest";
import { OPERATIONS, operationKey } from "@/lib/api/operations";
import { createApiRouter, type RouteModule } from "@/lib/http/api-router";
import { NOT_SERVED } from "@/lib/http/method-not-allowed";
import { laneRouteFiles } from "../../server/build-lanes.mjs";

/**
 * One source for every route (issue 35): the operations registry's method and path table, which
 * the API lane routes by in production, and the app/api/v1 route files, which hold the handlers
 * (and which Next.js routes by in `npm run dev`), name the same endpoints.
 */
const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

async function routeModules(): Promise<Record<string, RouteModule>> {
  const modules: Record<string, RouteModule> = {};
  for (const route of laneRouteFiles()) modules[route.pattern] = (await import(route.file)) as RouteModule;
  return modules;
}

describe("the operations registry and the route files", () => {
  it("name the same endpoints: each route file serves exactly the methods listed for its path", async () => {
    const modules = await routeModules();
    const served = Object.entries(modules).flatMap(([pattern, module]) =>
      ROUTE_METHODS.filter(
        (method) => typeof module[method] === "function" && !(NOT_SERVED in (module[method] as object)),
      ).map((method) => `${method} ${pattern}`),
    );
    const registered = OPERATIONS.map(operationKey);
    expect(served.length).toBeGreaterThan(20);
    expect(
      served.filter((key) => !registered.includes(key)),
      "route handlers with no operation in the registry",
    ).toEqual([]);
    expect(
      registered.filter((key) => !served.includes(key)),
      "operations with no route handler",
    ).toEqual([]);
  });

  it("answer every other method of a path through otherMethods(), OPTIONS included", async () => {
    for (const [pattern, module] of Object.entries(await routeModules())) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        expect(typeof module[method], `${method} ${pattern}`).toBe("function");
      }
    }
  });

  it("make a router that finds each registry path's route module, static segments before parameters", async () => {
    const modules = await routeModules();
    const match = createApiRouter(OPERATIONS, modules);
    const check = match("/api/v1/payments/intents/pa_1/check");
    expect(check?.pattern).toBe("/api/v1/payments/intents/:id/check");
    expect(check?.module).toBe(modules["/api/v1/payments/intents/:id/check"]);
    expect(check?.params).toEqual({ id: "pa_1" });
    expect(match("/api/v1/payments/intents")?.pattern).toBe("/api/v1/payments/intents");
    expect(match("/api/v1/customers/search/+213555")?.params).toEqual({ phone: "+213555" });
    expect(match("/api/v1/payment-methods/available")?.pattern).toBe("/api/v1/payment-methods/available");
    expect(match("/api/v1/payments/pa_2/refund")?.params).toEqual({ paymentId: "pa_2" });
    expect(match("/api/v1/no-such-thing")).toBeNull();
    expect(match("/api/v1/payments/intents/pa_1/check/more")).toBeNull();
  });

  it("refuse to make a router when the registry and the route files disagree", async () => {
    const modules = await routeModules();
    const { ["/api/v1/cards"]: _left, ...withoutCards } = modules;
    expect(() => createApiRouter(OPERATIONS, withoutCards)).toThrow(/no route file for \/api\/v1\/cards/);
    expect(() => createApiRouter(OPERATIONS, { ...modules, "/api/v1/extra": {} })).toThrow(
      /no operation for \/api\/v1\/extra/,
    );
  });
});
