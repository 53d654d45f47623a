import { readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { errorNamesOf } from "@/lib/api/operations/operation";
import { OPERATIONS } from "@/lib/api/operations";
import { errorStatus } from "@/lib/errors/api-error";
import { discoverApiRoutes } from "../support/security/discover-routes";
import { apiModes, ROUTE_TABLE } from "../support/security/route-table";
import { useTestGateway } from "../support/test-gateway";

/** Issue 14: one OpenAPI 3.1 document, generated from the operations' zod schemas, current and valid. */

const committedText = readFileSync(path.resolve(import.meta.dirname, "../../openapi.json"), "utf8");
const committed = JSON.parse(committedText);
const toOpenApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, "{$1}");
const { api } = useTestGateway();

describe("openapi.json", () => {
  it("is what the operations registry generates (run `npm run openapi` after changing an operation)", () => {
    expect(committedText).toBe(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });

  it("validates as an OpenAPI 3.1 document (swagger-parser)", async () => {
    const validated = (await SwaggerParser.validate(structuredClone(committed))) as { openapi?: string };
    expect(validated.openapi).toBe("3.1.0");
  });

  it("describes every /api/v1 route the security suite discovers, and no route that does not exist", async () => {
    const served = (await discoverApiRoutes()).filter(
      (route) => !route.pattern.endsWith("/*") && route.pattern !== "/api/v1",
    );
    expect(served.length).toBeGreaterThan(20);
    const documented = Object.entries(committed.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`),
    );
    const routes = served.map((route) => `${route.method} ${toOpenApiPath(route.pattern)}`);
    expect(
      routes.filter((route) => !documented.includes(route)),
      "routes the document leaves out",
    ).toEqual([]);
    expect(
      documented.filter((route) => !routes.includes(route)),
      "documented operations with no route",
    ).toEqual([]);
  });

  it("documents for each operation the auth modes the security suite proves it accepts", () => {
    for (const operation of OPERATIONS) {
      const spec = ROUTE_TABLE[`${operation.method} ${operation.path}`];
      expect(spec, operation.operationId).toBeDefined();
      expect([...(operation.auth ?? [])].sort(), operation.operationId).toEqual(apiModes(spec!).sort());
    }
  });

  it("documents the three auth modes, every header, each error name with its status, and the notifications", () => {
    expect(Object.keys(committed.components.securitySchemes).sort()).toEqual([
      "clientAuth",
      "customerBearer",
      "customerToken",
      "intentClientSecret",
      "publishableKey",
    ]);
    expect(committed.components.securitySchemes.intentClientSecret).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-client-secret",
    });
    expect(committed.components.securitySchemes.customerToken).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-client-token",
    });
    const proceed = committed.paths["/api/v1/payments/intents/{id}/proceed"].post;
    const headerNames = proceed.parameters
      .filter((p: { in: string }) => p.in === "header")
      .map((p: { name: string }) => p.name);
    expect(headerNames.sort()).toEqual(["Idempotency-Key", "x-country-code", "x-locale", "x-platform", "x-service"]);
    expect(proceed.security).toEqual([
      { clientAuth: [] },
      { publishableKey: [], intentClientSecret: [] },
      { customerToken: [] },
      { customerBearer: [] },
    ]);
    expect(proceed.responses["200"].headers).toHaveProperty("RateLimit-Policy");
    expect(proceed.responses["429"].headers).toHaveProperty("Retry-After");

    const everyName = new Set(OPERATIONS.flatMap((operation) => errorNamesOf(operation)));
    expect([...everyName].sort()).toEqual(Object.keys(errorStatus).sort());
    const refund = committed.paths["/api/v1/payments/{paymentId}/refund"].post;
    expect(refund.responses["400"].description).toBe(
      "`amount_exceeds_refundable`, `validation_error` (see the Errors table).",
    );
    expect(refund.responses["400"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error400",
    });
    expect(committed.components.schemas.Error400.properties.error.properties.name.enum).toEqual([
      "validation_error",
      "amount_exceeds_reserved",
      "amount_exceeds_refundable",
    ]);

    expect(Object.keys(committed.webhooks).sort()).toEqual([
      "payment.captured",
      "payment.failed",
      "payment.pre_authorized",
      "payment.refunded",
      "payment.released",
      "payment.succeeded",
    ]);
  });

  it("says the interface's quirks plainly where a developer reads", () => {
    const intro: string = committed.info.description;
    for (const phrase of [
      "`metadata` vs `metaData`",
      "Refund 4 vs check 16",
      "`require3DS` for a wallet OTP",
      "`endUserMessage` string or object",
      "alpha-2 vs alpha-3",
      "refunds the rest",
    ]) {
      expect(intro).toContain(phrase);
    }
    for (const code of [1, 2, 3, 4, 10, 12, 13, 16]) expect(intro).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
  });

  it("is served at GET /api/v1/openapi.json without credentials, naming this gateway as its server", async () => {
    const response = await api.get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.body.openapi).toBe("3.1.0");
    expect(response.body.paths).toEqual(committed.paths);
    expect(response.body.servers).toHaveLength(1);
  });
});
