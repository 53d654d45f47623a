import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { clientSecretFor } from "@/lib/auth/client-secret";
import { basicBearer } from "@/lib/auth/detect-credential";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb, onQuery } from "@/lib/db/client";
import { rateLimitPolicies } from "@/lib/rate-limit/policies";
import { clientAuth, merchantAuth, userAuth, type ApiResponse } from "../support/api";
import { createCustomerToken, createMerchant, randomPhone } from "../support/factories";
import { useGatewayAndProbe } from "../support/probe-gateway";

// These run on the PostgreSQL store (no REDIS_URL): PGlite or the server in DATABASE_URL.
beforeAll(() => {
  delete process.env.REDIS_URL;
});
const { api, probe } = useGatewayAndProbe();

/** The RateLimit field's parameters, e.g. `"secret";r=37;t=12` -> { policy: "secret", r: 37, t: 12 }. */
function rateLimitOf(response: ApiResponse) {
  const field = response.headers.get("ratelimit") ?? "";
  const match = /^"([a-z]+)";r=(\d+);t=(\d+)$/.exec(field);
  if (!match) throw new Error(`unexpected RateLimit field: ${field}`);
  return { policy: match[1], r: Number(match[2]), t: Number(match[3]) };
}

async function newPaymentSecret() {
  const paymentId = randomUUID();
  return { paymentId, clientSecret: clientSecretFor(await getGatewayKey(await getDb()), paymentId) };
}

describe("rate limit header fields", () => {
  // The client id's quota comes back one request every 10 ms, so between two requests it may
  // have grown back: assertions allow for what the elapsed time refilled.
  const clientInterval = rateLimitPolicies.client.intervalMs;

  it("puts RateLimit-Policy and RateLimit on client_auth successes", async () => {
    const merchant = await createMerchant();
    const response = await api.post("/api/v1/customers", { name: "A", phone: randomPhone() }, clientAuth(merchant));
    expect(response.status).toBe(201);
    expect(response.headers.get("ratelimit-policy")).toBe('"client";q=6000;w=60');
    expect(rateLimitOf(response)).toEqual({ policy: "client", r: 5999, t: 1 });
    expect(response.headers.get("retry-after")).toBeNull();
  });

  it("puts them on error answers too: validation_error and not_found", async () => {
    const merchant = await createMerchant();
    const invalid = await probe.get("/probe/client-validated?countryCode=dz", clientAuth(merchant));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.name).toBe("validation_error");
    expect(rateLimitOf(invalid)).toMatchObject({ policy: "client", r: 5999 });

    const missing = await api.get(`/api/v1/customers/${randomUUID()}`, clientAuth(merchant));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ratelimit-policy")).toBe('"client";q=6000;w=60');
    expect(rateLimitOf(missing).policy).toBe("client");
  });

  it("counts failed client_auth authentications against the client id they name", async () => {
    const merchant = await createMerchant();
    const failures = 40;
    const started = performance.now();
    const wrong = await Promise.all(
      Array.from({ length: failures }, () =>
        probe.get("/probe/client", { authorization: basicBearer(merchant.clientId, "not-the-secret") }),
      ),
    );
    const right = await probe.get("/probe/client", clientAuth(merchant));
    const refilled = Math.floor((performance.now() - started) / clientInterval);
    expect(
      wrong.every((response) => response.status === 401 && response.body.error.name === "invalid_credentials"),
    ).toBe(true);
    expect(wrong.every((response) => rateLimitOf(response).policy === "client")).toBe(true);
    expect(rateLimitOf(right).r).toBeLessThanOrEqual(Math.min(5999, 6000 - (failures + 1) + refilled));
  });

  it("reports the tighter merchant_auth limit: the client secret's before the publishable key's", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await newPaymentSecret();
    const response = await probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret));
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toBe('"secret";q=120;w=60');
    expect(rateLimitOf(response)).toMatchObject({ policy: "secret", r: 119 });
  });

  it("limits user_auth per customer", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const response = await probe.get("/probe/user", userAuth(merchant, accessToken));
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toBe('"customer";q=300;w=60');
    expect(rateLimitOf(response)).toMatchObject({ policy: "customer", r: 299 });
  });

  it("charges card finalize (client secret only) to the same per-secret quota as merchant_auth", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await newPaymentSecret();
    await probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret));
    const finalize = await probe.post(`/probe/finalize/${paymentId}`, undefined, { "x-client-secret": clientSecret });
    expect(finalize.status).toBe(200);
    expect(rateLimitOf(finalize)).toMatchObject({ policy: "secret", r: 118 });
  });

  it("charges a forged client secret to the publishable key it came with, never to the payment it names", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await newPaymentSecret();
    const forged = clientSecret.replace(/[0-9a-f]{8}$/, "00000000");
    const refused = await probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, forged));
    expect(refused.status).toBe(401);
    expect(rateLimitOf(refused)).toMatchObject({ policy: "key", r: 599 });
    const genuine = await probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret));
    expect(rateLimitOf(genuine)).toMatchObject({ policy: "secret", r: 119 });
  });
});

describe("the per-secret limit at its real size", () => {
  it("refuses requests past 120 with one client secret with 429 rate_limited and Retry-After", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await newPaymentSecret();
    const sent = 160;
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: sent }, () =>
        probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret)),
      ),
    );
    const elapsedMs = performance.now() - started;
    const admitted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    expect(admitted.length + refused.length).toBe(sent);
    // GCRA: the whole quota at once, then one more per 500 ms the burst itself took.
    const refilled = Math.floor(elapsedMs / rateLimitPolicies.clientSecret.intervalMs);
    expect(admitted.length).toBeGreaterThanOrEqual(120);
    expect(admitted.length).toBeLessThanOrEqual(120 + refilled);
    for (const response of refused) {
      expect(response.body).toMatchObject({ code: 429, status: "error", error: { name: "rate_limited" } });
      expect(response.body.error.requestId).toBe(response.headers.get("x-request-id"));
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("ratelimit-policy")).toBe('"secret";q=120;w=60');
      expect(rateLimitOf(response)).toMatchObject({ policy: "secret", r: 0 });
    }

    // Refused before the credential is judged: a bad publishable key learns nothing either.
    const otherKey = await probe.get(`/probe/merchant/${paymentId}`, {
      ...merchantAuth(merchant, clientSecret),
      authorization: "Bearer pk_service_unknown",
    });
    if (otherKey.status !== 429) {
      // Only when a unit came back meanwhile; then it must be the plain 401.
      expect(otherKey.status).toBe(401);
    }

    // Waiting Retry-After is enough to be admitted again.
    const retryAfter = Number(refused.at(-1)?.headers.get("retry-after") ?? 1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const later = await probe.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret));
    expect(later.status).toBe(200);
  });
});

describe("cost of the limits", () => {
  it("adds no statement: a client_auth request costs what it did before limits (auth and limit in one)", async () => {
    const merchant = await createMerchant();
    await api.post("/api/v1/customers", { name: "Warm", phone: randomPhone() }, clientAuth(merchant));
    const statements: string[] = [];
    const stop = onQuery((query) => statements.push(query));
    const response = await api.post(
      "/api/v1/customers",
      { name: "Counted", phone: randomPhone() },
      clientAuth(merchant),
    );
    stop();
    expect(response.status).toBe(201);
    // Before rate limits: the credential lookup and the insert.
    expect(statements).toHaveLength(2);
    const limitStatements = statements.filter((query) => query.includes("rate_limits"));
    expect(limitStatements).toHaveLength(1);
    expect(limitStatements[0]).toContain("api_credentials");
  });

  it("authenticates merchant_auth and user_auth with their limits in one statement each", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await newPaymentSecret();
    const { accessToken } = await createCustomerToken(merchant);
    for (const [path, headers] of [
      [`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret)],
      ["/probe/user", userAuth(merchant, accessToken)],
    ] as const) {
      const statements: string[] = [];
      const stop = onQuery((query) => statements.push(query));
      const response = await probe.get(path, headers);
      stop();
      expect(response.status).toBe(200);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain("rate_limits");
    }
  });
});
