import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { clientSecretFor } from "@/lib/auth/client-secret";
import { basicBearer } from "@/lib/auth/detect-credential";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { rotateClientSecret } from "@/lib/merchants/rotate-client-secret";
import { clientAuth, merchantAuth, userAuth, type ApiResponse } from "../support/api";
import { createCustomerToken, createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();

type Merchant = Awaited<ReturnType<typeof createMerchant>>;
type Session = Awaited<ReturnType<typeof createCustomerToken>>;

let owner: Merchant;
let other: Merchant;
let session: Session;
// A genuine payment client secret (HMAC under the gateway key), as a browser would hold.
let genuineClientSecret: string;

beforeAll(async () => {
  owner = await createMerchant();
  other = await createMerchant();
  session = await createCustomerToken(owner);
  genuineClientSecret = clientSecretFor(await getGatewayKey(await getDb()), randomUUID());
});

const base64 = (text: string) => Buffer.from(text).toString("base64");
const fakeClientSecret = () => `pa_${randomUUID()}_secret_${"ab".repeat(32)}`;

/**
 * Every customer and token endpoint, aimed at a real customer and a live pair of `owner`:
 * if a refused credential were let through, the request would succeed.
 */
const endpoints: { name: string; method: string; path: () => string; body?: () => unknown }[] = [
  {
    name: "POST /customers",
    method: "POST",
    path: () => "/api/v1/customers",
    body: () => ({ name: "Nadia", phone: randomPhone() }),
  },
  { name: "GET /customers/:id", method: "GET", path: () => `/api/v1/customers/${session.customer.id}` },
  {
    name: "GET /customers/search/:phone",
    method: "GET",
    path: () => `/api/v1/customers/search/${encodeURIComponent(session.customer.phone)}`,
  },
  {
    name: "PUT /customers/:id",
    method: "PUT",
    path: () => `/api/v1/customers/${session.customer.id}`,
    body: () => ({ name: "Renamed" }),
  },
  {
    name: "POST /customer-access-token",
    method: "POST",
    path: () => "/api/v1/customer-access-token",
    body: () => ({ customerId: session.customer.id }),
  },
  {
    name: "POST /customer-access-token/refresh",
    method: "POST",
    path: () => "/api/v1/customer-access-token/refresh",
    body: () => ({ refreshToken: session.refreshToken, accessToken: session.accessToken }),
  },
  {
    name: "DELETE /customer-access-token/revoke",
    method: "DELETE",
    path: () => "/api/v1/customer-access-token/revoke",
    body: () => ({ accessToken: session.accessToken }),
  },
];

/** Credentials of every kind these client_auth endpoints must refuse. */
const refusedCredentials: [string, () => Record<string, string>][] = [
  ["no credential", () => ({})],
  ["merchant_auth (publishable key + x-client-secret)", () => merchantAuth(owner, genuineClientSecret)],
  ["publishable key alone", () => ({ authorization: `Bearer ${owner.publishableKey}` })],
  ["x-client-secret alone", () => ({ "x-client-secret": genuineClientSecret })],
  ["user_auth token in x-client-token", () => ({ "x-client-token": session.accessToken, "x-service": owner.service })],
  ["user_auth token as Bearer", () => ({ authorization: `Bearer ${session.accessToken}` })],
  ["garbage Bearer", () => ({ authorization: "Bearer garbage!!" })],
  ["Bearer without a token", () => ({ authorization: "Bearer " })],
  ["Basic scheme", () => ({ authorization: `Basic ${base64(`${owner.clientId}:${owner.clientSecret}`)}` })],
  ["base64 without a colon", () => ({ authorization: `Bearer ${base64(owner.clientSecret)}` })],
  ["client id of the wrong shape", () => ({ authorization: basicBearer("not-a-client-id", owner.clientSecret) })],
  [
    "unknown client id",
    () => ({ authorization: basicBearer(owner.clientId.replace(/.{4}$/, "ZZZZ"), owner.clientSecret) }),
  ],
  ["wrong client secret", () => ({ authorization: basicBearer(owner.clientId, other.clientSecret) })],
  ["another merchant's client id", () => ({ authorization: basicBearer(other.clientId, owner.clientSecret) })],
  ["empty client secret", () => ({ authorization: basicBearer(owner.clientId, "") })],
  ["x-service of another service", () => clientAuth(owner, { "x-service": other.service })],
];

function comparable(response: ApiResponse) {
  const { error, ...rest } = response.body;
  const { requestId, ...errorRest } = error ?? {};
  expect(requestId).toBe(response.headers.get("x-request-id"));
  return { httpStatus: response.status, ...rest, error: errorRest };
}

describe.each(endpoints)("$name refuses every credential but client_auth", (endpoint) => {
  it.each(refusedCredentials)("with %s: 401 invalid_credentials, as with none", async (_label, headers) => {
    const send = (sent: Record<string, string>) =>
      api.call(endpoint.method, endpoint.path(), { body: endpoint.body?.(), headers: sent });
    const reference = comparable(await send({}));
    expect(reference).toMatchObject({
      httpStatus: 401,
      code: 401,
      status: "error",
      error: { name: "invalid_credentials" },
    });
    // The message may say how to send a credential (scheme, format, mode: from the request's
    // shape alone, tests/integration/error-messages.test.ts); everything else is identical.
    const { message: _referenceMessage, ...referenceRest } = reference;
    const { message, ...rest } = comparable(await send(headers()));
    expect(rest).toEqual(referenceRest);
    expect(message).not.toMatch(/unknown|revoked|expired|not found|does not exist|wrong secret|another merchant/i);
  });

  it("answers every well-formed client_auth credential it refuses with one and the same message", async () => {
    const wellFormed = [
      "unknown client id",
      "wrong client secret",
      "another merchant's client id",
      "empty client secret",
    ];
    const messages = new Set<string>();
    for (const [label, headers] of refusedCredentials.filter(([label]) => wellFormed.includes(label))) {
      const response = await api.call(endpoint.method, endpoint.path(), {
        body: endpoint.body?.(),
        headers: headers(),
      });
      expect(response.status, label).toBe(401);
      messages.add(response.body.message);
    }
    expect([...messages]).toEqual(["Invalid or missing credentials."]);
  });
});

describe("refusals change nothing", () => {
  it("left the customer and the pair untouched", async () => {
    const customer = await api.get(`/api/v1/customers/${session.customer.id}`, clientAuth(owner));
    expect(customer.body.data).toMatchObject({ name: session.customer.name, isActive: true });
    const refreshed = await api.post(
      "/api/v1/customer-access-token/refresh",
      { refreshToken: session.refreshToken, accessToken: session.accessToken },
      clientAuth(owner),
    );
    expect(refreshed.status).toBe(200);
  });

  it("checks credentials before the body: a bad credential with a bad body is still 401", async () => {
    const response = await api.call("POST", "/api/v1/customers", {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(401);
    expect(response.body.error.name).toBe("invalid_credentials");
  });
});

describe("client_auth accepts its own credential", () => {
  it("accepts the credential with or without the service's own x-service, and a lower-case scheme", async () => {
    const path = `/api/v1/customers/${session.customer.id}`;
    expect((await api.get(path, clientAuth(owner))).status).toBe(200);
    expect((await api.get(path, clientAuth(owner, { "x-service": owner.service }))).status).toBe(200);
    const lowerCase = basicBearer(owner.clientId, owner.clientSecret).replace(/^Bearer/, "bearer");
    expect((await api.get(path, { authorization: lowerCase })).status).toBe(200);
  });

  it("stops accepting a client secret once it is rotated, and accepts the new one", async () => {
    const merchant = await createMerchant();
    const body = { name: "Rotating", phone: randomPhone() };
    const customer = await api.post("/api/v1/customers", body, clientAuth(merchant));
    const path = `/api/v1/customers/${customer.body.data.id}`;
    const { clientSecret } = await rotateClientSecret(await getDb(), merchant.clientId);
    const stale = await api.get(path, clientAuth(merchant));
    expect(stale.status).toBe(401);
    expect(stale.body.error.name).toBe("invalid_credentials");
    expect((await api.get(path, clientAuth({ ...merchant, clientSecret }))).status).toBe(200);
  });
});

/**
 * The other modes, asked of authenticate() itself: no customer or token endpoint accepts
 * them, and the payment endpoints that do come with their own suites.
 */
describe("authenticate() for user_auth and merchant_auth", () => {
  const request = (headers: Record<string, string>) => new Request("http://gateway.test/api/v1/x", { headers });
  const outcome = async (headers: Record<string, string>, options: Parameters<typeof authenticate>[2]) => {
    try {
      return await authenticate(await getDb(), request(headers), options);
    } catch (error) {
      return error instanceof ApiError ? error.errorName : error;
    }
  };

  it("resolves a customer access token to that customer and service", async () => {
    const fresh = await createCustomerToken(owner);
    const principal = await outcome(userAuth(owner, fresh.accessToken), { modes: ["user"] });
    expect(principal).toMatchObject({ mode: "user", customerId: fresh.customer.id, service: { code: owner.service } });
  });

  it("refuses a user_auth token sent with another service's x-service", async () => {
    const fresh = await createCustomerToken(owner);
    expect(await outcome(userAuth(other, fresh.accessToken), { modes: ["user"] })).toBe("invalid_credentials");
  });

  it("asks for x-service with validation_error where an endpoint requires it", async () => {
    const fresh = await createCustomerToken(owner);
    const headers = { "x-client-token": fresh.accessToken };
    expect(await outcome(headers, { modes: ["user"], requireServiceHeader: true })).toBe("validation_error");
    expect(await outcome(headers, { modes: ["user"] })).toMatchObject({ mode: "user" });
  });

  it("resolves merchant_auth from the publishable key and a genuine client secret of the path's payment", async () => {
    const paymentId = randomUUID();
    const clientSecret = clientSecretFor(await getGatewayKey(await getDb()), paymentId);
    const principal = await outcome(merchantAuth(owner, clientSecret), { modes: ["merchant"], paymentId });
    expect(principal).toMatchObject({ mode: "merchant", paymentId, service: { code: owner.service } });
  });

  it("refuses merchant_auth without finer causes: lone key, forged secret, other payment, unknown key", async () => {
    const paymentId = randomUUID();
    const clientSecret = clientSecretFor(await getGatewayKey(await getDb()), paymentId);
    const cases: Record<string, string>[] = [
      { authorization: `Bearer ${owner.publishableKey}` },
      merchantAuth(owner, fakeClientSecret()),
      merchantAuth(
        owner,
        clientSecret.replace(/.$/, (last) => (last === "0" ? "1" : "0")),
      ),
      merchantAuth({ ...owner, publishableKey: `${owner.publishableKey}x` }, clientSecret),
      { "x-client-secret": clientSecret },
    ];
    for (const headers of cases) {
      expect(await outcome(headers, { modes: ["merchant"], paymentId })).toBe("invalid_credentials");
    }
    expect(await outcome(merchantAuth(owner, clientSecret), { modes: ["merchant"], paymentId: randomUUID() })).toBe(
      "invalid_credentials",
    );
  });

  it("applies the Origin allow-list to merchant_auth: listed or absent passes, others are 403", async () => {
    const paymentId = randomUUID();
    const clientSecret = clientSecretFor(await getGatewayKey(await getDb()), paymentId);
    const options = { modes: ["merchant" as const], paymentId };
    const listed = merchantAuth(owner, clientSecret, { origin: "https://shop.example" });
    expect(await outcome(listed, options)).toMatchObject({ mode: "merchant" });
    expect(await outcome(merchantAuth(owner, clientSecret), options)).toMatchObject({ mode: "merchant" });
    for (const origin of ["https://evil.example", "http://shop.example", "null"]) {
      expect(await outcome(merchantAuth(owner, clientSecret, { origin }), options), origin).toBe("origin_not_allowed");
    }
  });
});
