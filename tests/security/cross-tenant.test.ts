import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, clientAuth, merchantAuth, userAuth, type ApiClient, type ApiResponse } from "../support/api";
import { randomPhone } from "../support/factories";
import { startTestGateway, type TestGateway } from "../support/gateway-server";
import { check, notificationsOf, paymentRow, proceed } from "../support/payments";
import { comparable, describe as show, envelopeProblems } from "../support/security/envelope";
import { buildWorld, type World } from "../support/security/world";

/**
 * Issue 7, security suite item 2: another merchant's and another customer's objects
 * (payments, customers, cards, notifications, tokens) answer exactly as unknown ones do:
 * same status, same body apart from the request id. Nothing tells a prober that the id
 * exists elsewhere, and the probe changes nothing.
 */

let gateway: TestGateway;
let api: ApiClient;
let world: World;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = apiClient(gateway.baseUrl);
  world = await buildWorld(api);
});
afterAll(() => gateway.close());

/** Revoke answers success for any token (RFC 7009); everything else refuses what it cannot see. */
function expectIndistinguishable(
  foreign: ApiResponse,
  unknown: ApiResponse,
  label: string,
  options: { succeeds?: boolean } = {},
) {
  expect(envelopeProblems(foreign), `${label} (foreign): ${show(foreign)}`).toEqual([]);
  expect(envelopeProblems(unknown), `${label} (unknown): ${show(unknown)}`).toEqual([]);
  if (!options.succeeds) expect(foreign.status, `${label}: ${show(foreign)}`).toBeGreaterThanOrEqual(400);
  expect(comparable(foreign), label).toEqual(comparable(unknown));
}

const owner = () => clientAuth(world.owner, { "x-service": world.owner.service, "x-platform": "API" });
const signedIn = () => userAuth(world.owner, world.session.accessToken, { "x-platform": "API" });
const randomToken = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, "")}${randomUUID().replace(/-/g, "")}`;

describe("another merchant's objects under client_auth are unknown objects", () => {
  it("customers: get, update, search by phone and token generation", async () => {
    const foreignId = world.foreign.customer.id;
    const unknown = randomUUID();
    expectIndistinguishable(
      await api.get(`/api/v1/customers/${foreignId}`, owner()),
      await api.get(`/api/v1/customers/${unknown}`, owner()),
      "GET customer",
    );
    expectIndistinguishable(
      await api.put(`/api/v1/customers/${foreignId}`, { name: "Taken Over" }, owner()),
      await api.put(`/api/v1/customers/${unknown}`, { name: "Taken Over" }, owner()),
      "PUT customer",
    );
    expectIndistinguishable(
      await api.get(`/api/v1/customers/search/${encodeURIComponent(world.foreign.customer.phone)}`, owner()),
      await api.get(`/api/v1/customers/search/${encodeURIComponent(randomPhone())}`, owner()),
      "search customer",
    );
    expectIndistinguishable(
      await api.post("/api/v1/customer-access-token", { customerId: foreignId }, owner()),
      await api.post("/api/v1/customer-access-token", { customerId: unknown }, owner()),
      "generate token",
    );
    const theirs = await api.get(`/api/v1/customers/${foreignId}`, clientAuth(world.other));
    expect(theirs.body.data.name).toBe("Foreign");
  });

  it("customer tokens: refreshing or revoking another service's pair is an unknown pair; it still works", async () => {
    const { accessToken, refreshToken } = world.foreign;
    expectIndistinguishable(
      await api.post("/api/v1/customer-access-token/refresh", { accessToken, refreshToken }, owner()),
      await api.post(
        "/api/v1/customer-access-token/refresh",
        { accessToken: randomToken("cat_"), refreshToken: randomToken("crt_") },
        owner(),
      ),
      "refresh",
    );
    expectIndistinguishable(
      await api.delete("/api/v1/customer-access-token/revoke", { accessToken }, owner()),
      await api.delete("/api/v1/customer-access-token/revoke", { accessToken: randomToken("cat_") }, owner()),
      "revoke",
      { succeeds: true },
    );
    const stillWorks = await api.get("/api/v1/cards", userAuth(world.other, accessToken, { "x-platform": "API" }));
    expect(stillWorks.status, show(stillWorks)).toBe(200);
  });

  it("payments: check, proceed, capture, release, refund and the sandbox QR answer", async () => {
    const created = await world.intent({ merchant: world.other });
    const reserved = await world.settled({ merchant: world.other, captureMethod: "RESERVATION" });
    const succeeded = await world.settled({ merchant: world.other });
    const qr = await world.qrPayment(world.other);
    const unknown = randomUUID();
    const calls: [string, (id: string) => Promise<ApiResponse>, string][] = [
      ["check", (id) => check(api, id, owner()), created.paymentId],
      ["proceed", (id) => proceed(api, id, owner()), created.paymentId],
      ["capture", (id) => api.post(`/api/v1/payments/intents/${id}/capture`, {}, owner()), reserved.paymentId],
      ["release", (id) => api.post(`/api/v1/payments/intents/${id}/release`, {}, owner()), reserved.paymentId],
      [
        "refund",
        (id) => api.post(`/api/v1/payments/${id}/refund`, { description: "probe" }, owner()),
        succeeded.paymentId,
      ],
      [
        "sandbox QR answer",
        (id) => api.post(`/api/v1/sandbox/payments/${id}/qr`, { outcome: "approve" }, owner()),
        qr.paymentId,
      ],
    ];
    for (const [label, call, foreignId] of calls)
      expectIndistinguishable(await call(foreignId), await call(unknown), label);

    expect((await paymentRow(created.paymentId)).state).toBe("CREATED");
    expect((await paymentRow(reserved.paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await paymentRow(succeeded.paymentId)).state).toBe("SUCCEEDED");
    expect((await paymentRow(qr.paymentId)).state).toBe("PROCESSING");
  });

  it("notifications: another merchant's payment has no deliveries in the sandbox webhook list", async () => {
    const succeeded = await world.settled({ merchant: world.other });
    expect((await notificationsOf(succeeded.paymentId)).length).toBeGreaterThan(0);
    const foreign = await api.get(`/api/v1/sandbox/webhooks?paymentId=${succeeded.paymentId}`, owner());
    const unknown = await api.get(`/api/v1/sandbox/webhooks?paymentId=${randomUUID()}`, owner());
    expect(envelopeProblems(foreign)).toEqual([]);
    expect(foreign.status).toBe(200);
    expect(comparable(foreign)).toEqual(comparable(unknown));
    expect(foreign.body.data).toEqual([]);
    const everything = await api.get("/api/v1/sandbox/webhooks?limit=200", owner());
    expect(JSON.stringify(everything.body.data)).not.toContain(succeeded.paymentId);
  });
});

describe("another customer's objects under user_auth are unknown objects", () => {
  it("payments of a neighbour in the same service, and of another merchant's customer", async () => {
    const neighbours = await world.intent({ userId: world.neighbour.customer.phone });
    const foreign = await world.intent({ merchant: world.other });
    const unknown = randomUUID();
    for (const [label, id] of [
      ["neighbour", neighbours.paymentId],
      ["other merchant", foreign.paymentId],
    ] as const) {
      expectIndistinguishable(
        await check(api, id, signedIn()),
        await check(api, unknown, signedIn()),
        `check ${label}`,
      );
      expectIndistinguishable(
        await proceed(api, id, signedIn()),
        await proceed(api, unknown, signedIn()),
        `proceed ${label}`,
      );
    }
    expect((await paymentRow(neighbours.paymentId)).state).toBe("CREATED");
    expect((await paymentRow(foreign.paymentId)).state).toBe("CREATED");
  });

  it("saved cards: another customer's card cannot be listed, deleted or charged", async () => {
    const [neighbourCard, foreignCard] = await Promise.all([
      world.savedCard(world.neighbour),
      world.savedCard(world.foreign, world.other),
    ]);
    const unknown = randomUUID();
    const deleteHeaders = userAuth(world.owner, world.session.accessToken, { "x-country-code": "DZA" });
    for (const [label, id] of [
      ["neighbour's card", neighbourCard],
      ["other merchant's card", foreignCard],
    ] as const) {
      expectIndistinguishable(
        await api.delete(`/api/v1/cards/${id}`, undefined, deleteHeaders),
        await api.delete(`/api/v1/cards/${unknown}`, undefined, deleteHeaders),
        `delete ${label}`,
      );
      const own = await world.intent();
      const other = await world.intent();
      expectIndistinguishable(
        await proceed(api, own.paymentId, signedIn(), { paymentMethodCode: "CARD_PROVIDER", cardId: id }),
        await proceed(api, other.paymentId, signedIn(), { paymentMethodCode: "CARD_PROVIDER", cardId: unknown }),
        `charge ${label}`,
      );
    }

    const listed = await api.get("/api/v1/cards", signedIn());
    expect(listed.status).toBe(200);
    const methods = await api.get("/api/v1/payment-methods?amount=10", { ...signedIn(), "x-country-code": "DZA" });
    expect(methods.status, show(methods)).toBe(200);
    for (const id of [neighbourCard, foreignCard]) {
      expect(JSON.stringify(listed.body.data)).not.toContain(id);
      expect(JSON.stringify(methods.body.data)).not.toContain(id);
    }
    // The probes deleted nothing: the neighbour still has the card.
    const theirs = await api.get(
      "/api/v1/cards",
      userAuth(world.owner, world.neighbour.accessToken, { "x-platform": "API" }),
    );
    expect(theirs.body.data.map((card: { id: string }) => card.id)).toContain(neighbourCard);
  });
});

describe("under merchant_auth, card-finalize secrets and page tokens, a foreign id is refused as unknown", () => {
  it("a client secret presented for another payment, or another merchant's payment", async () => {
    const mine = await world.intent();
    const otherPayment = await world.intent();
    const foreign = await world.intent({ merchant: world.other });
    const unknown = randomUUID();
    const browser = (secret: string) => merchantAuth(world.owner, secret, { "x-platform": "WEB" });
    expectIndistinguishable(
      await check(api, otherPayment.paymentId, browser(mine.clientSecret)),
      await check(api, unknown, browser(mine.clientSecret)),
      "check another payment",
    );
    expectIndistinguishable(
      await check(api, foreign.paymentId, browser(foreign.clientSecret)),
      await check(api, unknown, browser(mine.clientSecret)),
      "another merchant's payment with its own secret",
    );
    const finalize = (id: string, secret: string) =>
      api.post(
        `/api/v1/payments/intents/${id}/card-provider-finalize`,
        { paymentIntentId: "pi_x", externalCardId: "pm_x" },
        {
          "x-client-secret": secret,
        },
      );
    expectIndistinguishable(
      await finalize(otherPayment.paymentId, mine.clientSecret),
      await finalize(unknown, mine.clientSecret),
      "finalize another payment",
    );
  });

  it("a QR page token presented for another payment", async () => {
    const [mine, other] = await Promise.all([world.qrPayment(), world.qrPayment(world.other)]);
    for (const kind of ["status", "image"]) {
      expectIndistinguishable(
        await api.get(`/api/v1/qr/${other.paymentId}/${kind}?token=${mine.token}`),
        await api.get(`/api/v1/qr/${randomUUID()}/${kind}?token=${mine.token}`),
        `QR ${kind}`,
      );
    }
  });
});
