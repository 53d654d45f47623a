import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { eventDetailView, eventView, redeliverEventResponse } from "@/lib/events/events.schema";
import { purgeEvents } from "@/lib/events/purge-events";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { realEvent } from "../support/real-events";
import { capture, paidIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const { api } = useTestGateway();
let receiver: WebhookReceiver;
let merchant: OnboardedMerchant;
let other: OnboardedMerchant;
let paid: { paymentId: string };
let reserved: { paymentId: string };

const deliver = async () => deliverDueNotifications(await getDb(), { schedule: [60], claimForMs: 500 });
const events = (query = "", who = merchant) => api.get(`/api/v1/events${query}`, clientAuth(who));

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  merchant = await createMerchant({ webhookUrl: receiver.url() });
  other = await createMerchant();
  paid = await paidIntent(api, merchant);
  reserved = await paidIntent(api, merchant, { captureMethod: "RESERVATION" });
  await capture(api, merchant, reserved.paymentId, { amount: 500 });
  await deliver();
});
afterAll(() => receiver.close());

describe("GET /api/v1/events", () => {
  it("lists the service's events newest first, each with its delivery, and hasMore in the envelope", async () => {
    const response = await events();
    expect(response.status).toBe(200);
    expect(response.body.hasMore).toBe(false);
    const list = response.body.data as unknown[];
    expect(list.map((event) => eventView.parse(event).type)).toEqual([
      "payment.captured",
      "payment.pre_authorized",
      "payment.succeeded",
    ]);
    const [captured] = response.body.data;
    expect(captured.data).toMatchObject({ paymentId: reserved.paymentId, statusCode: 2, capturedAmount: 500 });
    expect(captured.delivery).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastStatusCode: 204,
      nextAttemptAt: null,
    });
    expect(receiver.received.map((hook) => hook.headers["webhook-id"])).toContain(captured.id);
  });

  it("pages with limit and startingAfter until hasMore is false", async () => {
    const first = await events("?limit=2");
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await events(`?limit=2&startingAfter=${first.body.data[1].id}`);
    expect(second.body.data.map((event: { type: string }) => event.type)).toEqual(["payment.succeeded"]);
    expect(second.body.hasMore).toBe(false);
  });

  it("filters by type, paymentId and deliveryStatus", async () => {
    expect(
      (await events("?type=payment.pre_authorized")).body.data.map(
        (e: { data: { paymentId: string } }) => e.data.paymentId,
      ),
    ).toEqual([reserved.paymentId]);
    expect((await events(`?paymentId=${paid.paymentId}`)).body.data.map((e: { type: string }) => e.type)).toEqual([
      "payment.succeeded",
    ]);
    expect((await events("?deliveryStatus=delivered")).body.data).toHaveLength(3);
    expect((await events("?deliveryStatus=failed")).body.data).toEqual([]);
    expect((await events("?deliveryStatus=pending")).body.data).toEqual([]);
  });

  it("tells a failed delivery as failed with its last status code", async () => {
    const failing = await startWebhookReceiver(() => ({ status: 500 }));
    const shop = await createMerchant({ webhookUrl: failing.url() });
    try {
      const { id } = await realEvent(api, shop, "failed");
      await deliverDueNotifications(await getDb(), { schedule: [], claimForMs: 500 });
      const response = await events("?deliveryStatus=failed", shop);
      expect(response.body.data.map((event: { id: string }) => event.id)).toEqual([id]);
      expect(response.body.data[0].delivery).toMatchObject({
        status: "failed",
        attempts: 1,
        lastStatusCode: 500,
        nextAttemptAt: null,
      });
    } finally {
      await failing.close();
    }
  });

  it("refuses a bad query with one clear message per field", async () => {
    const response = await events("?limit=0&deliveryStatus=lost&startingAfter=nope");
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: "query.limit", message: "must be a whole number from 1 to 100" },
      {
        path: "query.startingAfter",
        message: "must be an event id (msg_ followed by 26 characters), as the webhook-id header carries it",
      },
      { path: "query.deliveryStatus", message: "must be one of pending, delivered, failed" },
    ]);
    expect((await events("?limit=101")).status).toBe(400);
  });

  it("shows another service nothing of this one: an empty list; its event ids as a cursor refused", async () => {
    const mine = (await events()).body.data[0].id;
    expect((await events("", other)).body.data).toEqual([]);
    const response = await events(`?startingAfter=${mine}`, other);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].path).toBe("query.startingAfter");
  });
});

describe("GET /api/v1/events/:id", () => {
  it("adds every attempt with its time, status code, error and duration", async () => {
    const [event] = (await events(`?paymentId=${paid.paymentId}`)).body.data;
    const response = await api.get(`/api/v1/events/${event.id}`, clientAuth(merchant));
    expect(response.status).toBe(200);
    const detail = eventDetailView.parse(response.body.data);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ statusCode: 204, error: null });
    expect(detail.delivery.lastAttemptAt).toBe(detail.attempts[0]!.at);
  });

  it("answers 404 for another service's event and for an unknown id", async () => {
    const [event] = (await events()).body.data;
    for (const path of [
      `/api/v1/events/${event.id}`,
      "/api/v1/events/msg_00000000000000000000000000",
      "/api/v1/events/whatever",
    ]) {
      const response = await api.get(path, clientAuth(path.includes(event.id) ? other : merchant));
      expect(response.status, path).toBe(404);
      expect(response.body.error.name).toBe("not_found");
    }
  });
});

describe("POST /api/v1/events/:id/redeliver", () => {
  it("answers 202 and delivers once more with the same webhook-id and a fresh timestamp, signed", async () => {
    const [event] = (await events(`?paymentId=${paid.paymentId}`)).body.data;
    const firstDelivery = receiver.received.find((hook) => hook.headers["webhook-id"] === event.id)!;
    const askedAt = Math.floor(Date.now() / 1000);
    const response = await api.post(`/api/v1/events/${event.id}/redeliver`, undefined, clientAuth(merchant));
    expect(response.status).toBe(202);
    expect(redeliverEventResponse.parse(response.body.data).delivery.status).toBe("pending");
    await deliver();
    const deliveries = receiver.received.filter((hook) => hook.headers["webhook-id"] === event.id);
    expect(deliveries).toHaveLength(2);
    const again = deliveries[1]!;
    expect(Number(again.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(askedAt);
    expect(again.body).toBe(firstDelivery.body);
    expect(() => new Webhook(merchant.webhookSecret).verify(again.body, again.headers)).not.toThrow();
    const detail = (await api.get(`/api/v1/events/${event.id}`, clientAuth(merchant))).body.data;
    expect(detail.delivery).toMatchObject({ status: "delivered", attempts: 2 });
    expect(detail.attempts).toHaveLength(2);
  });

  it("answers 404 for another service's event", async () => {
    const [event] = (await events()).body.data;
    const response = await api.post(`/api/v1/events/${event.id}/redeliver`, undefined, clientAuth(other));
    expect(response.status).toBe(404);
  });

  it("refuses with invalid_state when the service has no webhook URL", async () => {
    const { id } = await realEvent(api, other, "failed");
    const response = await api.post(`/api/v1/events/${id}/redeliver`, undefined, clientAuth(other));
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/no webhook URL/);
  });
});

describe("retention", () => {
  it("purges events older than 30 days with their attempts, and keeps younger ones", async () => {
    const db = await getDb();
    const shop = await createMerchant();
    const [old, young] = [await realEvent(api, shop), await realEvent(api, shop)];
    // Both payments happened that long ago, and their events with them.
    for (const [event, days] of [
      [old, 31],
      [young, 29],
    ] as const) {
      await db.execute(
        sql`update payments set created_at = created_at - make_interval(days => ${days}) where id = ${event.paymentId}`,
      );
      await db.execute(
        sql`update notifications set status = 'undeliverable', created_at = now() - make_interval(days => ${days})
          where id = ${event.id}`,
      );
    }
    await db.execute(
      sql`insert into notification_attempts (notification_id, attempt_number, duration_ms) values (${old.id}, 1, 5)`,
    );
    expect(await purgeEvents(db)).toBeGreaterThanOrEqual(1);
    expect((await api.get(`/api/v1/events/${old.id}`, clientAuth(shop))).status).toBe(404);
    expect((await api.get(`/api/v1/events/${young.id}`, clientAuth(shop))).status).toBe(200);
  });
});

describe("GET /api/v1/sandbox/webhooks", () => {
  it("keeps listing the service's deliveries in the sandbox", async () => {
    const response = await api.get(`/api/v1/sandbox/webhooks?paymentId=${paid.paymentId}`, clientAuth(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({ type: "payment.succeeded", status: "delivered" });
  });
});
