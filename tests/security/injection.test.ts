import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentRefunds } from "@/lib/db/schema";
import { clientAuth, type ApiResponse } from "../support/api";
import { useTestGateway } from "../support/test-gateway";
import { paymentRow } from "../support/payments";
import { acceptedCredentials } from "../support/security/credentials";
import { describe as show, envelopeProblems } from "../support/security/envelope";
import {
  encodeSegment,
  headerSafe,
  INJECTION_STRINGS,
  isTextField,
  MUST_BE_REFUSED,
  schemaKeys,
} from "../support/security/hostile-input";
import { ROUTE_TABLE, type RouteRequest, type RouteSpec } from "../support/security/route-table";
import { buildWorld, type World } from "../support/security/world";

/**
 * Issue 7, security suite item 4: injection strings (SQL, markup and script, Unicode
 * oddities, NUL, very long text) in every text field of every route: body fields and query
 * parameters the route's zod schemas declare as text, its headers, its path parameters.
 * Nothing breaks (never a 500, always the envelope); text that cannot be stored as sent
 * (NUL, unpaired surrogates) is refused with validation_error; what is accepted and stored
 * comes back verbatim (the schemas trim surrounding whitespace, nothing else).
 */

const { api } = useTestGateway();
let world: World;

beforeAll(async () => {
  world = await buildWorld(api);
});

type Place = "body" | "query" | "header" | "param";
interface TextField {
  place: Place;
  name: string;
}

const IDEMPOTENT = /\/(proceed|capture|release|refund|card-provider-finalize)$/;

/** Every text field of a route, read from its schemas, headers and path. */
function textFields(key: string, spec: RouteSpec): TextField[] {
  const [method, pattern] = key.split(" ") as [string, string];
  const body = schemaKeys(spec.schemas?.body).filter((name) => isTextField(spec.schemas?.body, name));
  const query = schemaKeys(spec.schemas?.query).filter((name) => isTextField(spec.schemas?.query, name));
  const headers = new Set(schemaKeys(spec.schemas?.headers));
  if (method === "POST" && IDEMPOTENT.test(pattern)) headers.add("idempotency-key");
  const params = pattern
    .split("/")
    .filter((segment) => segment.startsWith(":") || segment === "*")
    .map((segment) => segment.replace(/^:/, ""));
  return [
    ...body.map((name) => ({ place: "body" as const, name })),
    ...query.map((name) => ({ place: "query" as const, name })),
    ...[...headers].map((name) => ({ place: "header" as const, name })),
    ...params.map((name) => ({ place: "param" as const, name })),
  ];
}

/** The route's valid request with one field replaced, sent with the first mode it accepts. */
async function sendWith(
  key: string,
  spec: RouteSpec,
  field: TextField,
  value: string,
): Promise<{ response: ApiResponse; request: RouteRequest } | null> {
  const [method, pattern] = key.split(" ") as [string, string];
  const request = await spec.request(world);
  const [credential] = await acceptedCredentials(world, spec, request);
  const headers: Record<string, string> = { ...request.headers, ...credential?.headers };
  const query: Record<string, string> = { ...request.query };
  let body = request.body;
  const params = { ...request.params };
  switch (field.place) {
    case "body":
      body = { ...(body as object), [field.name]: value };
      break;
    case "query":
      if (value.length > 8_000) return null; // A request line that long never reaches an application.
      query[field.name] = value;
      break;
    case "header": {
      const safe = headerSafe(value);
      if (safe === null) return null; // Nothing of it is sendable as a header value.
      headers[field.name] = safe;
      break;
    }
    case "param":
      if (value.length > 8_000) return null;
      params[field.name] = value;
      break;
  }
  const path = pattern
    .split("/")
    .map((segment) => {
      const name = segment === "*" ? "*" : segment.startsWith(":") ? segment.slice(1) : null;
      return name === null ? segment : encodeSegment(params[name] ?? "");
    })
    .join("/");
  const search = new URLSearchParams(query).toString();
  const hasBody = body !== undefined && method !== "GET";
  if (hasBody) headers["content-type"] = "application/json";
  const response = await world.api.call(method, `${path}${search ? `?${search}` : ""}`, {
    rawBody: hasBody ? JSON.stringify(body) : undefined,
    headers,
  });
  return { response, request };
}

/**
 * Where an accepted value is stored and can be read back, how to read it. Reading the row is
 * the honest check for fields no response echoes (actionId, refund texts).
 */
const READ_BACK: Record<string, (response: ApiResponse, request: RouteRequest) => Promise<unknown>> = {
  "POST /api/v1/customers body.name": async (response) => (await customer(response.body.data.id)).name,
  "POST /api/v1/customers body.email": async (response) => (await customer(response.body.data.id)).email,
  "PUT /api/v1/customers/:id body.name": async (response) => (await customer(response.body.data.id)).name,
  "PUT /api/v1/customers/:id body.email": async (response) => (await customer(response.body.data.id)).email,
  "POST /api/v1/payments/intents body.actionId": async (response) =>
    (await paymentRow(response.body.data.paymentId)).actionId,
  "POST /api/v1/payments/:paymentId/refund body.description": async (_response, request) =>
    (await lastRefund(request)).description,
  "POST /api/v1/payments/:paymentId/refund body.reason": async (_response, request) =>
    (await lastRefund(request)).reason,
};

async function customer(id: string) {
  const response = await world.api.get(`/api/v1/customers/${id}`, clientAuth(world.owner));
  expect(response.status, show(response)).toBe(200);
  return response.body.data as { name: string; email: string | null };
}

async function lastRefund(request: RouteRequest) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, request.payment!.paymentId))
    .orderBy(desc(paymentRefunds.createdAt));
  return row!;
}

const routesWithText = Object.entries(ROUTE_TABLE).filter(([key, spec]) => textFields(key, spec).length > 0);

describe.each(routesWithText)("%s", (key, spec) => {
  it.each(textFields(key, spec).map((field) => [`${field.place} ${field.name}`, field] as const))(
    "takes hostile text in %s without breaking: refused as invalid, or stored verbatim",
    async (_label, field) => {
      const failures: string[] = [];
      for (const [name, value] of Object.entries(INJECTION_STRINGS)) {
        const sent = await sendWith(key, spec, field, value);
        if (!sent) continue;
        const { response, request } = sent;
        const problems = envelopeProblems(response);
        if (problems.length > 0) {
          failures.push(`${name}: ${show(response)} (${problems.join("; ")})`);
          continue;
        }
        const fieldKey = `${key} ${field.place}.${field.name}`;
        // A query string cannot even carry an unpaired surrogate (it is sent as U+FFFD); NUL it can.
        if (MUST_BE_REFUSED.has(name) && (field.place === "body" || (field.place === "query" && name === "NUL byte"))) {
          if (response.status !== 400 || response.body.error.name !== "validation_error") {
            failures.push(`${name}: must be refused with validation_error, got ${show(response)}`);
          }
          continue;
        }
        const readBack = READ_BACK[fieldKey];
        if (readBack && response.status < 300) {
          const stored = await readBack(response, request);
          if (stored !== value.trim())
            failures.push(
              `${name}: stored ${JSON.stringify(stored).slice(0, 80)}, sent ${JSON.stringify(value).slice(0, 80)}`,
            );
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

describe("free-form metaData on a payment intent", () => {
  it("stores hostile keys and values verbatim, and refuses what cannot be stored as sent", async () => {
    const spec = ROUTE_TABLE["POST /api/v1/payments/intents"]!;
    const credentials = clientAuth(world.owner);
    for (const [name, value] of Object.entries(INJECTION_STRINGS)) {
      if (value.length > 20_000) continue;
      const request = await spec.request(world);
      const metaData = {
        paymentCheckoutId: value,
        [value.slice(0, 200)]: [value.slice(0, 200), { nested: value.slice(0, 200) }],
      };
      const response = await world.api.post(
        `/api/v1/payments/intents?countryCode=DZA`,
        { ...(request.body as object), metaData },
        credentials,
      );
      expect(envelopeProblems(response), `${name}: ${show(response)}`).toEqual([]);
      // `__proto__` as a key would set the stored object's prototype and vanish: refused too.
      if (MUST_BE_REFUSED.has(name) || value === "__proto__") {
        expect(response.status, `${name}: ${show(response)}`).toBe(400);
        expect(response.body.error.name).toBe("validation_error");
        continue;
      }
      expect(response.status, `${name}: ${show(response)}`).toBe(201);
      expect((await paymentRow(response.body.data.paymentId)).metaData, name).toEqual(metaData);
    }
  });
});
