import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { notificationAttempts, notifications, services } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { claimDueNotifications } from "@/lib/notifications/claim-due-notifications";
import { deliverDueNotifications, type DeliverOptions } from "@/lib/notifications/deliver-due-notifications";
import { productionWebhookPolicy } from "@/lib/notifications/webhook-policy";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { newestEventOf, realEvent, type RealOutcome } from "../support/real-events";
import { useTestGateway } from "../support/test-gateway";
import { capture, createIntent, proceed, refund, release } from "../support/payments";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../support/webhook-receiver";

const { api } = useTestGateway();
let db: Db;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = await getDb();
});
// Each test starts with nothing due, so one test's leftovers never reach another's receiver.
afterEach(async () => {
  await db.update(notifications).set({ status: "abandoned" }).where(eq(notifications.status, "pending"));
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(answer?: Parameters<typeof startWebhookReceiver>[0]) {
  const started = await startWebhookReceiver(answer);
  receivers.push(started);
  return started;
}

async function serviceIdOf(merchant: OnboardedMerchant): Promise<string> {
  const [row] = await db.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));
  return row!.id;
}

// Contract section 7: each type, made by a real payment (tests/support/real-events.ts).
const CONTRACT_TYPES: { type: string; outcome: RealOutcome }[] = [
  { type: "payment.succeeded", outcome: "succeeded" },
  { type: "payment.failed", outcome: "failed" },
  { type: "payment.pre_authorized", outcome: "pre_authorized" },
  { type: "payment.captured", outcome: "captured" },
  { type: "payment.released", outcome: "released" },
  { type: "payment.refunded", outcome: "refunded" },
];

/** An event of a real payment of `merchant` (1.00 paid directly unless `outcome` says otherwise). */
const paymentEvent = (merchant: OnboardedMerchant, outcome?: RealOutcome) => realEvent(api, merchant, outcome);

async function notificationRow(id: string) {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  return row!;
}

async function attemptsOf(id: string) {
  return db
    .select()
    .from(notificationAttempts)
    .where(eq(notificationAttempts.notificationId, id))
    .orderBy(notificationAttempts.attemptNumber);
}

/** Runs the delivery worker's pass until `done` holds, as the background loop would. */
async function deliverUntil(done: () => Promise<boolean> | boolean, options: DeliverOptions = {}, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("deliveries did not settle in time");
    await deliverDueNotifications(db, options);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function verify(secret: string, request: ReceivedWebhook) {
  return new Webhook(secret).verify(request.body, request.headers);
}

describe("webhook delivery", () => {
  it("signs every contract notification type so the Standard Webhooks library verifies it", async () => {
    let merchant: OnboardedMerchant | undefined;
    const endpoint = await receiver((request) => {
      try {
        verify(merchant!.webhookSecret, request);
        return { status: 204 };
      } catch {
        return { status: 401 };
      }
    });
    merchant = await createMerchant({ webhookUrl: endpoint.url("/signed") });
    const sent = [];
    for (const { type, outcome } of CONTRACT_TYPES) sent.push({ type, ...(await paymentEvent(merchant, outcome)) });
    // The reservations' and the refunded payment's earlier events go out too.
    const total = (
      await db
        .select()
        .from(notifications)
        .where(eq(notifications.serviceId, await serviceIdOf(merchant)))
    ).length;

    await deliverUntil(() => endpoint.received.length >= total);

    expect(endpoint.received).toHaveLength(total);
    for (const { id, type, data } of sent) {
      const request = endpoint.received.find((candidate) => candidate.headers["webhook-id"] === id)!;
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      const body = verify(merchant.webhookSecret, request) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(["id", "type", "createdAt", "data"]);
      expect(body).toMatchObject({ id, type, data });
      expect(() =>
        new Webhook(`whsec_${Buffer.from("another secret").toString("base64")}`).verify(request.body, request.headers),
      ).toThrow();
      expect((await notificationRow(id)).status).toBe("delivered");
    }
  });

  it("retries a failing receiver with the same webhook-id and a fresh timestamp until it accepts", async () => {
    const endpoint = await receiver((_request, received) => ({ status: received.length <= 2 ? 500 : 200 }));
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/flaky") });
    const { id } = await paymentEvent(merchant);

    await deliverUntil(async () => (await notificationRow(id)).status === "delivered", { schedule: [1, 1, 1] });

    expect(endpoint.received).toHaveLength(3);
    expect(endpoint.received.map((request) => request.headers["webhook-id"])).toEqual([id, id, id]);
    const timestamps = endpoint.received.map((request) => Number(request.headers["webhook-timestamp"]));
    expect(timestamps[1]).toBeGreaterThan(timestamps[0]!);
    expect(timestamps[2]).toBeGreaterThan(timestamps[1]!);
    for (const request of endpoint.received) expect(verify(merchant.webhookSecret, request)).toMatchObject({ id });
    expect(new Set(endpoint.received.map((request) => request.body)).size).toBe(1);
    const attempts = await attemptsOf(id);
    expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.responseStatus])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it("abandons a notification once every attempt of the retry schedule has failed", async () => {
    const endpoint = await receiver(() => ({ status: 503 }));
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/down") });
    const { id } = await paymentEvent(merchant);

    await deliverUntil(async () => (await notificationRow(id)).status !== "pending", { schedule: [0.2, 0.2] });

    const row = await notificationRow(id);
    expect(row.status).toBe("abandoned");
    expect(row.lastError).toBe("HTTP 503");
    expect((await attemptsOf(id)).map((attempt) => attempt.responseStatus)).toEqual([503, 503, 503]);
  });

  it("does not follow redirects: a 3xx answer is a failed attempt, retried later", async () => {
    const endpoint = await receiver((request) =>
      request.path === "/moved" ? { status: 307, headers: { location: "/landing" } } : { status: 200 },
    );
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/moved") });
    const { id } = await paymentEvent(merchant);

    await deliverDueNotifications(db, { schedule: [300] });

    expect(endpoint.received.map((request) => request.path)).toEqual(["/moved"]);
    const row = await notificationRow(id);
    expect(row.status).toBe("pending");
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 250_000);
    expect(await attemptsOf(id)).toMatchObject([
      { attemptNumber: 1, responseStatus: 307, error: expect.stringMatching(/redirect/) },
    ]);
  });

  it("resends on a fresh connection when the receiver dropped the kept-alive one, no failed attempt", async () => {
    // A receiver that answers the first request of each connection and drops the connection
    // on the next one: what a server closing idle keep-alive sockets looks like to a client.
    const perSocket = new WeakMap<object, number>();
    let delivered = 0;
    const server = createServer((request, response) => {
      const count = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, count);
      if (count > 1) return request.socket.destroy();
      request.resume();
      delivered += 1;
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const merchant = await createMerchant({
      webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    });
    try {
      const first = await paymentEvent(merchant);
      await deliverDueNotifications(db);
      const second = await paymentEvent(merchant);
      await deliverDueNotifications(db);

      expect(delivered).toBe(2);
      for (const { id } of [first, second]) {
        expect(await attemptsOf(id)).toMatchObject([{ attemptNumber: 1, responseStatus: 204, error: null }]);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("counts a receiver that does not answer in time as a failed attempt", async () => {
    const endpoint = await receiver(() => "hold");
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/slow") });
    const { id } = await paymentEvent(merchant);

    await deliverDueNotifications(db, { timeoutMs: 300, schedule: [300] });

    expect(await attemptsOf(id)).toMatchObject([
      { attemptNumber: 1, responseStatus: null, error: expect.stringMatching(/timeout/) },
    ]);
    expect((await notificationRow(id)).status).toBe("pending");
  });

  it("in production refuses webhook URLs that are not https or reach a private address, sending nothing", async () => {
    const endpoint = await receiver();
    const cases = [
      { url: `https://127.0.0.1:${endpoint.port}/hook`, error: /loopback/ },
      { url: `https://[::ffff:10.0.0.1]:${endpoint.port}/hook`, error: /private/ },
      { url: `https://localhost:${endpoint.port}/hook`, error: /loopback/ },
      { url: endpoint.url("/plain-http"), error: /https/ },
    ];
    const ids = [];
    for (const { url } of cases) {
      const merchant = await createMerchant({ webhookUrl: url });
      ids.push((await paymentEvent(merchant)).id);
    }

    await deliverDueNotifications(db, { policy: productionWebhookPolicy, schedule: [300] });

    expect(endpoint.received).toHaveLength(0);
    for (const [index, id] of ids.entries()) {
      const [attempt] = await attemptsOf(id);
      expect(attempt?.responseStatus).toBeNull();
      expect(attempt?.error).toMatch(/^refused/);
      expect(attempt?.error).toMatch(cases[index]!.error);
    }
  });

  it("keeps a notification of a service without webhook URL listed as undeliverable, with no attempt", async () => {
    const merchant = await createMerchant({ webhookUrl: undefined });
    const { id } = await paymentEvent(merchant);

    await deliverDueNotifications(db);

    const listed = await api.get("/api/v1/sandbox/webhooks", clientAuth(merchant));
    expect(listed.body.data).toMatchObject([
      { id, status: "undeliverable", attemptCount: 0, attempts: [], nextAttemptAt: null },
    ]);
  });

  it("delivers after the lease a notification whose worker stopped mid-delivery, keeping its webhook-id", async () => {
    const endpoint = await receiver();
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/after-crash") });
    const { id } = await paymentEvent(merchant);
    // A worker claims the notification, then dies before it sends or records anything.
    const claimed = await claimDueNotifications(db, { limit: 100, workerId: "lost-worker:1" });
    expect(claimed.map((item) => item.id)).toContain(id);
    await deliverDueNotifications(db);
    expect(endpoint.received).toHaveLength(0); // still leased: nobody else sends it

    await db
      .update(notifications)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(notifications.id, id)); // the lease runs out
    await deliverDueNotifications(db);

    expect(endpoint.received.map((request) => request.headers["webhook-id"])).toEqual([id]);
    expect((await notificationRow(id)).status).toBe("delivered");
    expect(await attemptsOf(id)).toMatchObject([
      {
        attemptNumber: 1,
        responseStatus: null,
        error: expect.stringMatching(/interrupted/),
        workerId: "lost-worker:1",
      },
      { attemptNumber: 2, responseStatus: 204, error: null },
    ]);
  });

  it("two workers draining one database deliver each notification exactly once", async () => {
    const endpoint = await receiver(() => ({ status: 200, delayMs: Math.floor(Math.random() * 5) }));
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/many") });
    const ids: string[] = [];
    // Ten buyers at a time, as a shop's checkout would see them.
    for (let batch = 0; batch < 30; batch += 1) {
      ids.push(...(await Promise.all(Array.from({ length: 10 }, async () => (await paymentEvent(merchant)).id))));
    }

    await Promise.all([
      deliverDueNotifications(db, { concurrency: 16, claimForMs: 60_000 }),
      deliverDueNotifications(db, { concurrency: 16, claimForMs: 60_000 }),
    ]);

    const counts = new Map<string, number>();
    for (const request of endpoint.received) {
      const id = request.headers["webhook-id"]!;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.size).toBe(ids.length);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const rows = await db.select().from(notifications).where(inArray(notifications.id, ids));
    expect(rows.every((row) => row.status === "delivered" && row.attemptCount === 1)).toBe(true);
  }, 180_000); // 300 real payments go through the gateway first
});

describe("GET /api/v1/sandbox/webhooks", () => {
  it("lists the calling service's recent notifications, newest first, with their attempts", async () => {
    const endpoint = await receiver((_request, received) => ({ status: received.length === 1 ? 500 : 200 }));
    const merchant = await createMerchant({ webhookUrl: endpoint.url("/listed") });
    const first = await paymentEvent(merchant, "pre_authorized");
    await deliverUntil(async () => (await notificationRow(first.id)).status === "delivered", { schedule: [0.1] });
    expect((await capture(api, merchant, first.paymentId)).status).toBe(200);
    const second = await newestEventOf(first.paymentId);

    const response = await api.get("/api/v1/sandbox/webhooks", clientAuth(merchant));

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success" });
    const [newest, older] = response.body.data;
    expect(response.body.data).toHaveLength(2);
    expect(newest).toMatchObject({ id: second.id, type: "payment.captured", status: "pending", attempts: [] });
    expect(older).toMatchObject({
      id: first.id,
      type: "payment.pre_authorized",
      paymentId: first.data.paymentId,
      status: "delivered",
      attemptCount: 2,
      nextAttemptAt: null,
      payload: { id: first.id, type: "payment.pre_authorized", data: first.data },
    });
    expect(older.attempts).toEqual([
      {
        number: 1,
        responseStatus: 500,
        error: "HTTP 500",
        durationMs: expect.any(Number),
        attemptedAt: expect.any(String),
      },
      { number: 2, responseStatus: 200, error: null, durationMs: expect.any(Number), attemptedAt: expect.any(String) },
    ]);
    expect(Date.parse(older.attempts[1].attemptedAt)).toBeGreaterThanOrEqual(Date.parse(older.attempts[0].attemptedAt));
  });

  it("never lists another service's notifications", async () => {
    const owner = await createMerchant();
    const other = await createMerchant();
    const { data } = await paymentEvent(owner);

    const ownView = await api.get(`/api/v1/sandbox/webhooks?paymentId=${data.paymentId}`, clientAuth(owner));
    const otherView = await api.get(`/api/v1/sandbox/webhooks?paymentId=${data.paymentId}`, clientAuth(other));

    expect(ownView.body.data).toHaveLength(1);
    expect(otherView.status).toBe(200);
    expect(otherView.body.data).toEqual([]);
  });

  it("returns 50 notifications by default and honours a limit", async () => {
    const merchant = await createMerchant();
    for (let index = 0; index < 55; index += 1) await paymentEvent(merchant);

    const byDefault = await api.get("/api/v1/sandbox/webhooks", clientAuth(merchant));
    const limited = await api.get("/api/v1/sandbox/webhooks?limit=3", clientAuth(merchant));

    expect(byDefault.body.data).toHaveLength(50);
    expect(limited.body.data.map((item: { id: string }) => item.id)).toEqual(
      byDefault.body.data.slice(0, 3).map((item: { id: string }) => item.id),
    );
  });

  it("refuses a limit out of range with validation_error", async () => {
    const merchant = await createMerchant();
    const response = await api.get("/api/v1/sandbox/webhooks?limit=0", clientAuth(merchant));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "query.limit" }] });
  });

  it("answers 401 invalid_credentials without client credentials", async () => {
    const response = await api.get("/api/v1/sandbox/webhooks");
    expect(response.status).toBe(401);
    expect(response.body.error.name).toBe("invalid_credentials");
  });

  it("answers 404 not_found in production", async () => {
    const merchant = await createMerchant();
    const globalConfig = globalThis as unknown as { gatewayConfig?: ReturnType<typeof getConfig> };
    const sandbox = getConfig();
    globalConfig.gatewayConfig = { ...sandbox, APP_ENV: "production", isSandbox: false };
    try {
      const response = await api.get("/api/v1/sandbox/webhooks", clientAuth(merchant));
      expect(response.status).toBe(404);
      expect(response.body.error.name).toBe("not_found");
    } finally {
      globalConfig.gatewayConfig = sandbox;
    }
  });
});

describe("payment outcomes reach the merchant's webhook URL, signed", () => {
  async function payingCustomer(path: string) {
    const endpoint = await receiver();
    const merchant = await createMerchant({ webhookUrl: endpoint.url(path) });
    const { accessToken, customer } = await createCustomerToken(merchant);
    const headers = userAuth(merchant, accessToken, { "x-platform": "IOS" });
    return { endpoint, merchant, customer, headers };
  }

  it("sends a reservation's pre-authorization, partial capture and both refunds", async () => {
    const { endpoint, merchant, customer, headers } = await payingCustomer("/reservation");
    const intent = await createIntent(api, merchant, {
      userId: customer.phone,
      amount: 200,
      captureMethod: "RESERVATION",
    });
    expect((await proceed(api, intent.paymentId, headers)).body.data.statusCode).toBe(13);
    expect((await capture(api, merchant, intent.paymentId, { amount: 150 })).status).toBe(200);
    expect((await refund(api, merchant, intent.paymentId, { description: "one item back", amount: 50 })).status).toBe(
      200,
    );
    expect((await refund(api, merchant, intent.paymentId, { description: "the rest" })).status).toBe(200);

    await deliverUntil(() => endpoint.received.length >= 4);

    const bodies = endpoint.received.map((request) => verify(merchant.webhookSecret, request));
    const common = { paymentId: intent.paymentId, actionId: intent.body.actionId, currency: "DZD" };
    expect(bodies).toHaveLength(4);
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "payment.pre_authorized",
          data: expect.objectContaining({ ...common, remoteStatusCode: 13, statusCode: 13 }),
        }),
        expect.objectContaining({
          type: "payment.captured",
          data: expect.objectContaining({ ...common, remoteStatusCode: 2, capturedAmount: 150 }),
        }),
        expect.objectContaining({
          type: "payment.refunded",
          data: expect.objectContaining({ ...common, remoteStatusCode: 4, statusCode: 16, refundedAmount: 50 }),
        }),
        expect.objectContaining({
          type: "payment.refunded",
          data: expect.objectContaining({ ...common, remoteStatusCode: 4, statusCode: 4, refundedAmount: 100 }),
        }),
      ]),
    );
  });

  it("sends a direct payment's success, a refused payment's failure and a reservation's release", async () => {
    const { endpoint, merchant, customer, headers } = await payingCustomer("/outcomes");
    const paid = await createIntent(api, merchant, { userId: customer.phone, amount: 25.5 });
    const tooBig = await createIntent(api, merchant, { userId: customer.phone, amount: 20_000 });
    const held = await createIntent(api, merchant, {
      userId: customer.phone,
      amount: 30,
      captureMethod: "RESERVATION",
    });
    expect((await proceed(api, paid.paymentId, headers)).body.data.statusCode).toBe(2);
    expect((await proceed(api, tooBig.paymentId, headers)).body.data.statusCode).toBe(3);
    expect((await proceed(api, held.paymentId, headers)).body.data.statusCode).toBe(13);
    expect((await release(api, merchant, held.paymentId)).status).toBe(200);

    await deliverUntil(() => endpoint.received.length >= 4);

    const byPayment = new Map<string, { type: string; data: { remoteStatusCode: number; amount: number } }[]>();
    for (const request of endpoint.received) {
      const body = verify(merchant.webhookSecret, request) as {
        type: string;
        data: { paymentId: string; remoteStatusCode: number; amount: number };
      };
      byPayment.set(body.data.paymentId, [...(byPayment.get(body.data.paymentId) ?? []), body]);
    }
    expect(byPayment.get(paid.paymentId)).toMatchObject([
      { type: "payment.succeeded", data: { remoteStatusCode: 2, amount: 25.5 } },
    ]);
    expect(byPayment.get(tooBig.paymentId)).toMatchObject([{ type: "payment.failed", data: { remoteStatusCode: 3 } }]);
    expect(
      byPayment
        .get(held.paymentId)
        ?.map((body) => [body.type, body.data.remoteStatusCode])
        .sort(),
    ).toEqual([
      ["payment.pre_authorized", 13],
      ["payment.released", 10],
    ]);
  });
});
