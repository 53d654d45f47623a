import { beforeAll, describe, expect, it } from "vitest";
import type { ApiResponse } from "../support/api";
import { useTestGateway } from "../support/test-gateway";
import { acceptedCredentials, CREDENTIAL_VARIANTS, expectationFor, send } from "../support/security/credentials";
import { discoverApiRoutes } from "../support/security/discover-routes";
import { comparable, describe as show, envelopeProblems } from "../support/security/envelope";
import { apiModes, ROUTE_TABLE } from "../support/security/route-table";
import { buildWorld, type World } from "../support/security/world";

/**
 * Issue 7, security suite item 1: every endpoint under every credential it must refuse,
 * over HTTP. A refused credential gets 401 invalid_credentials with one and the same body
 * (request id aside) whatever was wrong with it, or 403 origin_not_allowed for a good
 * merchant_auth pair sent from a foreign Origin; never a 500.
 */

const { api } = useTestGateway();
let world: World;

beforeAll(async () => {
  world = await buildWorld(api);
});

// The message may say how a credential must be sent (scheme, encoding, mode), from the request's
// shape alone; it never tells whether a credential exists (tests/integration/auth-messages.test.ts).
const REFUSED = { code: 401, status: "error", message: expect.any(String), error: { name: "invalid_credentials" } };
const TELLS_EXISTENCE =
  /unknown|revoked|expired|rotated|not found|does not exist|no such|wrong (client )?secret|another merchant/i;
const split = (key: string) => key.split(" ") as [string, string];

describe("the route table", () => {
  it("lists every handler under app/api/v1 and nothing that does not exist", async () => {
    const discovered = (await discoverApiRoutes()).map((route) => route.key);
    expect(discovered.length).toBeGreaterThan(20);
    expect(
      discovered.filter((key) => !(key in ROUTE_TABLE)),
      "routes the security table does not list",
    ).toEqual([]);
    expect(
      Object.keys(ROUTE_TABLE).filter((key) => !discovered.includes(key)),
      "table entries with no route",
    ).toEqual([]);
  });
});

describe.each(Object.entries(ROUTE_TABLE).filter(([, spec]) => apiModes(spec).length > 0))("%s", (key, spec) => {
  const [method, pattern] = split(key);

  it("refuses every credential it does not accept with the same 401 invalid_credentials", async () => {
    const failures: string[] = [];
    let tried = 0;
    // A refused request changes nothing, so one request serves every variant.
    const request = await spec.request(world);
    for (const variant of CREDENTIAL_VARIANTS) {
      const expectation = expectationFor(spec.accepts, variant, request);
      if (expectation !== "refused") continue;
      tried += 1;
      const response = await send(world, method, pattern, request, await variant.headers(world, request));
      const problems = envelopeProblems(response);
      if (response.status !== 401 || problems.length > 0) {
        failures.push(`${variant.name}: ${show(response)} ${problems.join("; ")}`);
        continue;
      }
      expect(comparable(response).body, variant.name).toEqual(REFUSED);
      expect(response.body.message, variant.name).not.toMatch(TELLS_EXISTENCE);
    }
    expect(tried).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });

  if (spec.accepts.includes("merchant")) {
    it("refuses a good merchant_auth pair from a foreign Origin with 403 origin_not_allowed", async () => {
      const variant = CREDENTIAL_VARIANTS.find((candidate) => candidate.foreignOrigin)!;
      const request = await spec.request(world);
      const response = await send(world, method, pattern, request, await variant.headers(world, request));
      expect(envelopeProblems(response)).toEqual([]);
      expect(response.status, show(response)).toBe(403);
      expect(response.body.error.name).toBe("origin_not_allowed");
    });
  }

  it("serves each mode it accepts (so the refusals above are refusals of a door that opens)", async () => {
    const request = await spec.request(world);
    for (const { mode, headers } of await acceptedCredentials(world, spec, request)) {
      const response = await send(world, method, pattern, request, headers);
      expect(envelopeProblems(response), `${mode}: ${show(response)}`).toEqual([]);
      expect([401, 403], `${mode}: ${show(response)}`).not.toContain(response.status);
    }
  });
});

describe.each(Object.entries(ROUTE_TABLE).filter(([, spec]) => apiModes(spec).length === 0 && !spec.refusal))(
  "%s",
  (key) => {
    const [method, pattern] = split(key);

    it("serves anyone the same answer, whatever credential comes along", async () => {
      const answers = new Set<string>();
      for (const variant of CREDENTIAL_VARIANTS) {
        const response = await send(world, method, pattern, {}, await variant.headers(world, {}));
        expect(response.status, `${variant.name}: ${show(response)}`).toBe(200);
        answers.add(JSON.stringify(response.body));
      }
      expect(answers.size).toBe(1);
    });
  },
);

describe.each(Object.entries(ROUTE_TABLE).filter(([, spec]) => apiModes(spec).length === 0 && spec.refusal))(
  "%s",
  (key, spec) => {
    const [method, pattern] = split(key);

    it("opens to no API credential without its page token or signature, answering one same refusal", async () => {
      const request = await spec.request(world, { withAccess: false });
      const answers: ApiResponse[] = [];
      for (const variant of CREDENTIAL_VARIANTS) {
        const response = await send(world, method, pattern, request, await variant.headers(world, request));
        expect(envelopeProblems(response), `${variant.name}: ${show(response)}`).toEqual([]);
        expect(response.status, `${variant.name}: ${show(response)}`).toBe(spec.refusal!.status);
        expect(response.body.error.name).toBe(spec.refusal!.name);
        answers.push(response);
      }
      const bodies = new Set(answers.map((answer) => JSON.stringify(comparable(answer))));
      expect(bodies.size).toBe(1);
    });

    if (spec.accepts.includes("page_token") || spec.accepts.includes("provider_signature")) {
      it("serves the holder of its page token or the provider's signature", async () => {
        const request = await spec.request(world);
        const response = await send(
          world,
          method,
          pattern,
          request,
          {},
          { sign: spec.accepts.includes("provider_signature") },
        );
        expect(envelopeProblems(response), show(response)).toEqual([]);
        expect(response.status, show(response)).toBe(200);
      });
    }
  },
);
