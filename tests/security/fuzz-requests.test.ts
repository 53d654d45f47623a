import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/http/read-json-body";
import { apiClient, type ApiClient, type ApiResponse } from "../support/api";
import { startTestGateway, type TestGateway } from "../support/gateway-server";
import { acceptedCredentials } from "../support/security/credentials";
import { describe as show, envelopeProblems } from "../support/security/envelope";
import {
  anyValue,
  contentType,
  deeplyNested,
  encodeSegment,
  FUZZED_HEADERS,
  headerValue,
  hostileString,
  isTextField,
  MALFORMED_JSON,
  rawBody,
  rawQueryTail,
  schemaKeys,
} from "../support/security/hostile-input";
import { apiModes, ROUTE_TABLE, type RouteRequest, type RouteSpec } from "../support/security/route-table";
import { buildWorld, type World } from "../support/security/world";

/**
 * Issue 7, security suite item 3: generated requests on every route (fast-check, driven by
 * the zod schemas the routes import): malformed, oversized, deeply nested and wrongly typed
 * bodies, random headers, query strings and path segments. Whatever arrives, the answer is
 * the contract's envelope with an error name from its table, never a 500.
 *
 * SECURITY_FUZZ_RUNS sets the generated requests per route (default 40); a failure prints
 * fast-check's seed and shrunk counterexample, and `SECURITY_FUZZ_SEED` replays it.
 */

const RUNS = Number(process.env.SECURITY_FUZZ_RUNS ?? 40);
const SEED = process.env.SECURITY_FUZZ_SEED ? Number(process.env.SECURITY_FUZZ_SEED) : undefined;

let gateway: TestGateway;
let api: ApiClient;
let world: World;
// Fuzzing the sandbox clock moves its service's time by up to a year: it gets a world of its own.
let clockWorld: World;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = apiClient(gateway.baseUrl);
  [world, clockWorld] = await Promise.all([buildWorld(api), buildWorld(api)]);
});
afterAll(() => gateway.close());

const worldFor = (key: string) => (key === "POST /api/v1/sandbox/clock" ? clockWorld : world);
const split = (key: string) => key.split(" ") as [string, string];
const hasBody = (method: string) => method !== "GET" && method !== "HEAD";

type BodyPlan =
  | { kind: "keep" }
  | { kind: "mutate"; overrides: [string, unknown][] }
  | { kind: "replace"; value: unknown }
  | { kind: "raw"; text: string };

interface Plan {
  credential: string;
  body: BodyPlan;
  contentType: string | undefined;
  query: Record<string, string>;
  queryTail: string;
  headers: Record<string, string>;
  param: string | null;
}

// Request lines stay under 8 KiB, what HTTP servers and proxies accept before any application runs.
const urlText = hostileString.filter((text) => text.length <= 1_000);

function planArbitrary(spec: RouteSpec, credentialNames: string[]): fc.Arbitrary<Plan> {
  const bodyKeys = [...schemaKeys(spec.schemas?.body), "__proto__", "constructor", "unexpected"];
  const queryKeys = [...schemaKeys(spec.schemas?.query), "token", "limit"];
  const body: fc.Arbitrary<BodyPlan> = fc.oneof(
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: "keep" }) },
    {
      weight: 5,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom(...bodyKeys), anyValue), { minLength: 1, maxLength: 4 })
        .map((overrides): BodyPlan => ({ kind: "mutate", overrides })),
    },
    { weight: 2, arbitrary: anyValue.map((value): BodyPlan => ({ kind: "replace", value })) },
    { weight: 2, arbitrary: rawBody.map((text): BodyPlan => ({ kind: "raw", text })) },
  );
  return fc.record({
    credential: fc.constantFrom(...credentialNames),
    body,
    contentType,
    query: fc.dictionary(fc.oneof(fc.constantFrom(...queryKeys), urlText), urlText, { maxKeys: 3 }),
    queryTail: rawQueryTail,
    headers: fc.dictionary(fc.constantFrom(...FUZZED_HEADERS), headerValue, { maxKeys: 3 }),
    param: fc.option(
      // Never empty nor "..": the client would then address another route, not this one oddly.
      fc.oneof(
        urlText.filter((text) => !["", ".", ".."].includes(text)).map(encodeSegment),
        fc.constantFrom("%zz", "%00", "%2F", "%C0%AF", "a%20b", "%E2%80%AE", "-1", "0"),
      ),
      { freq: 4 },
    ),
  });
}

/** Builds the planned request on top of a valid one for the route and sends it. */
async function sendPlan(w: World, key: string, spec: RouteSpec, plan: Plan): Promise<ApiResponse> {
  const [method, pattern] = split(key);
  const usesAccess = plan.credential !== "no page token";
  const request: RouteRequest = await spec.request(w, { withAccess: usesAccess });
  const credentials = await credentialsFor(w, spec, request, plan.credential);

  let paramFuzzed = false;
  const path = pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return request.params?.["*"] ?? "x";
      if (!segment.startsWith(":")) return segment;
      if (plan.param !== null && !paramFuzzed) {
        paramFuzzed = true;
        return plan.param;
      }
      return encodeSegment(request.params?.[segment.slice(1)] ?? "");
    })
    .join("/");
  const query = new URLSearchParams({ ...request.query, ...plan.query }).toString() + plan.queryTail;

  let text: string | undefined;
  if (hasBody(method)) {
    const base = request.body ?? {};
    switch (plan.body.kind) {
      case "keep":
        text = JSON.stringify(base);
        break;
      case "mutate":
        text = JSON.stringify({ ...(base as object), ...Object.fromEntries(plan.body.overrides) });
        break;
      case "replace":
        text = JSON.stringify(plan.body.value) ?? "null";
        break;
      case "raw":
        text = plan.body.text;
        break;
    }
  }
  const headers: Record<string, string> = { ...request.headers, ...plan.headers, ...credentials };
  if (text !== undefined && plan.contentType !== undefined) headers["content-type"] = plan.contentType;
  return w.api.call(method, `${path}${query ? `?${query}` : ""}`, { rawBody: text, headers });
}

async function credentialsFor(
  w: World,
  spec: RouteSpec,
  request: RouteRequest,
  name: string,
): Promise<Record<string, string>> {
  if (name === "none" || name === "no page token") return {};
  if (name === "garbage") return { authorization: "Bearer ZmFrZTpmYWtl", "x-client-token": "cat_fake" };
  const found = (await acceptedCredentials(w, spec, request)).find((credential) => credential.mode === name);
  return found?.headers ?? {};
}

function credentialNames(spec: RouteSpec): string[] {
  const modes = apiModes(spec);
  if (modes.length > 0) return [...modes, ...modes, "none", "garbage"];
  return spec.accepts.includes("page_token") ? ["page_token", "page_token", "no page token"] : ["none"];
}

function expectContractAnswer(response: ApiResponse, context: string) {
  expect(envelopeProblems(response), `${show(response)}\n  for ${context.slice(0, 400)}`).toEqual([]);
}

describe.each(Object.entries(ROUTE_TABLE))("%s", (key, spec) => {
  const [method] = split(key);

  it("answers generated malformed, mistyped, deep, huge and odd requests with the envelope, never a 500", async () => {
    const w = worldFor(key);
    await fc.assert(
      fc.asyncProperty(planArbitrary(spec, credentialNames(spec)), async (plan) => {
        const response = await sendPlan(w, key, spec, plan);
        expectContractAnswer(response, JSON.stringify(plan).slice(0, 500));
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  if (!hasBody(method) || !spec.schemas?.body || apiModes(spec).length === 0) return;

  /** The route's own valid request with the accepted credential, with the body replaced by `text`. */
  async function sendBody(text: string, headers: Record<string, string> = { "content-type": "application/json" }) {
    const w = worldFor(key);
    const request = await spec.request(w);
    const [credentials] = await acceptedCredentials(w, spec, request);
    return sendPlan(w, key, spec, {
      credential: credentials!.mode,
      body: { kind: "raw", text },
      contentType: headers["content-type"],
      query: {},
      queryTail: "",
      headers: {},
      param: null,
    });
  }

  it("answers a body over 64 KiB with 413 payload_too_large", async () => {
    const response = await sendBody(JSON.stringify({ padding: "p".repeat(MAX_BODY_BYTES) }));
    expectContractAnswer(response, "oversized");
    expect(response.status, show(response)).toBe(413);
    expect(response.body.error.name).toBe("payload_too_large");
  });

  it("answers malformed JSON and JSON nested thousands deep with 400 validation_error", async () => {
    const bodies = [...MALFORMED_JSON, deeplyNested(5_000, "array"), deeplyNested(5_000, "object")];
    for (const text of bodies) {
      const response = await sendBody(text);
      expectContractAnswer(response, JSON.stringify(text.slice(0, 40)));
      expect(response.status, `${JSON.stringify(text.slice(0, 40))}: ${show(response)}`).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
    }
  });

  it("answers a body that is not application/json with 415 unsupported_media_type", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const response = await sendBody('{"a":1}', { "content-type": type });
      expectContractAnswer(response, type);
      expect(response.status, `${type}: ${show(response)}`).toBe(415);
    }
  });

  const keys = schemaKeys(spec.schemas?.body);
  if (keys.length === 0) return;

  it("names each wrongly typed body field in validation_error details", async () => {
    const w = worldFor(key);
    for (const field of keys) {
      const request = await spec.request(w);
      const wrong = isTextField(spec.schemas?.body, field) ? 12_345 : "wrong type";
      const response = await sendBody(JSON.stringify({ ...(request.body as object), [field]: wrong }));
      expectContractAnswer(response, field);
      expect(response.status, `${field}: ${show(response)}`).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
      expect(
        response.body.error.details.map((detail: { path: string }) => detail.path),
        field,
      ).toContain(field);
    }
  });
});
