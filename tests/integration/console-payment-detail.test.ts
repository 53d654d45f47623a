import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { notifications, paymentRefunds, services } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/auth/principal";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { getPaymentDetail } from "@/lib/console/payments/get-payment-detail";
import {
  captureFromConsole,
  refundFromConsole,
  releaseFromConsole,
  type ConsoleActor,
} from "@/lib/console/payments/console-money-operations";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { check, paidIntent, serverHeaders } from "../support/payments";

const { api } = useTestGateway();
const EMAIL = "support@shop.example";
let merchant: OnboardedMerchant;
let actor: ConsoleActor;

async function serviceContext(code: string): Promise<ServiceContext> {
  const [row] = await (await getDb()).select().from(services).where(eq(services.code, code));
  return row! as ServiceContext;
}

beforeAll(async () => {
  merchant = await createMerchant();
  actor = { service: await serviceContext(merchant.service), userEmail: EMAIL };
});

describe("console payment detail", () => {
  it("shows what check does, row amounts, customer, refunds, timeline with causes, events, deliveries", async () => {
    const intent = await paidIntent(api, merchant, { amount: 100 });
    const db = await getDb();
    await refundFromConsole(db, actor, {
      paymentId: intent.paymentId,
      formKey: "form-1",
      amount: "30.5",
      reason: "damaged",
    });
    const detail = await getPaymentDetail(db, { service: actor.service, paymentId: intent.paymentId });

    expect(detail.check).toEqual((await check(api, intent.paymentId, serverHeaders(merchant))).body.data);
    expect(detail.amounts).toEqual({
      amountMinor: 10000,
      capturedMinor: 10000,
      refundedMinor: 3050,
      pendingRefundMinor: 0,
      refundableMinor: 6950,
      capturableMinor: 0,
    });
    expect(detail).toMatchObject({
      statusCode: 16,
      method: { kind: "wallet" },
      customer: { phone: intent.body.userId, isActive: true },
    });
    expect(detail.refunds).toEqual([
      {
        id: expect.any(String),
        amountMinor: 3050,
        description: "damaged",
        reason: "damaged",
        createdAt: expect.any(Date),
      },
    ]);
    expect(detail.timeline.map((entry) => [entry.from, entry.to, entry.cause])).toEqual([
      [null, "CREATED", { kind: "api" }],
      ["CREATED", "REQUIRES_ACTION", { kind: "api" }],
      ["REQUIRES_ACTION", "SUCCEEDED", { kind: "buyer" }],
      ["SUCCEEDED", "PARTIALLY_REFUNDED", { kind: "console", userEmail: EMAIL }],
    ]);
    expect(detail.events.map((event) => [event.type, event.data?.remoteStatusCode])).toEqual([
      ["payment.refunded", 4],
      ["payment.succeeded", 2],
    ]);
    expect(detail.events.every((event) => event.createdAt instanceof Date)).toBe(true);
    expect(detail.events[0]!.delivery).toMatchObject({ status: expect.any(String), attempts: expect.any(Number) });
    expect(detail.allows).toEqual({ capture: false, release: false, refund: true });
  });

  it("lists events with partial bodies (no createdAt, no data, an unknown type) with what they have", async () => {
    const intent = await paidIntent(api, merchant);
    const db = await getDb();
    const stored = [
      { id: "msg_bare", payload: {} },
      { id: "msg_partial", payload: { data: { paymentId: intent.paymentId, statusCode: 2 }, createdAt: "yesterday" } },
    ];
    await db.insert(notifications).values(
      stored.map((row, i) => ({
        ...row,
        serviceId: actor.service.id,
        paymentId: intent.paymentId,
        type: "payment.event",
        createdAt: new Date(Date.now() + (i + 1) * 1000),
      })),
    );
    const detail = await getPaymentDetail(db, { service: actor.service, paymentId: intent.paymentId });
    expect(detail.events.map((event) => [event.id, event.type, event.createdAt, event.data])).toEqual([
      ["msg_partial", "payment.event", null, null],
      ["msg_bare", "payment.event", null, null],
      [
        expect.any(String),
        "payment.succeeded",
        expect.any(Date),
        expect.objectContaining({ paymentId: intent.paymentId, remoteStatusCode: 2 }),
      ],
    ]);
    expect(detail.events[0]!.delivery).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("answers not_found for another merchant's payment", async () => {
    const intent = await paidIntent(api, merchant);
    const other = await createMerchant();
    await expect(
      getPaymentDetail(await getDb(), { service: await serviceContext(other.service), paymentId: intent.paymentId }),
    ).rejects.toMatchObject({
      errorName: "not_found",
    });
  });
});

describe("capture, release and refund from the console", () => {
  it("a refund form posted twice refunds once", async () => {
    const intent = await paidIntent(api, merchant, { amount: 50 });
    const db = await getDb();
    const form = { paymentId: intent.paymentId, formKey: "refund-form-twice", amount: "10", reason: "late delivery" };
    const [first, second] = [await refundFromConsole(db, actor, form), await refundFromConsole(db, actor, form)];
    expect(second.refundId).toBe(first.refundId);
    expect(await db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, intent.paymentId))).toHaveLength(
      1,
    );
  });

  it("a refund form posted again with another amount is refused, not answered with the first refund", async () => {
    const intent = await paidIntent(api, merchant, { amount: 50 });
    const db = await getDb();
    const form = { paymentId: intent.paymentId, formKey: "refund-form-changed", amount: "10", reason: "late delivery" };
    await refundFromConsole(db, actor, form);
    // Back in the browser, the amount changed, the same form posted again.
    await expect(refundFromConsole(db, actor, { ...form, amount: "20" })).rejects.toMatchObject({
      errorName: "idempotency_conflict",
    });
    const refunds = await db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, intent.paymentId));
    expect(refunds.map((refund) => refund.amountMinor)).toEqual([1000]);
    // The same values again still answer the one refund.
    await expect(refundFromConsole(db, actor, form)).resolves.toMatchObject({ refundedMinor: 1000 });
  });

  it("a capture form posted again with another amount is refused, the first capture stands", async () => {
    const intent = await paidIntent(api, merchant, { amount: 30, captureMethod: "RESERVATION" });
    const db = await getDb();
    const form = { paymentId: intent.paymentId, formKey: "capture-form-changed", amount: "15" };
    await captureFromConsole(db, actor, form);
    await expect(captureFromConsole(db, actor, { ...form, amount: "30" })).rejects.toMatchObject({
      errorName: "idempotency_conflict",
    });
    const detail = await getPaymentDetail(db, { service: actor.service, paymentId: intent.paymentId });
    expect([detail.payment.state, detail.amounts.capturedMinor]).toEqual(["SUCCEEDED", 1500]);
  });

  it("refuses an amount above what is refundable with the rule, and does nothing", async () => {
    const intent = await paidIntent(api, merchant, { amount: 20 });
    const db = await getDb();
    await expect(
      refundFromConsole(db, actor, { paymentId: intent.paymentId, formKey: "too-much", amount: "20.01", reason: "x" }),
    ).rejects.toMatchObject({
      errorName: "amount_exceeds_refundable",
      message: "The refund amount is above the remaining refundable 20.00 DZD.",
    });
    await expect(
      refundFromConsole(db, actor, { paymentId: intent.paymentId, formKey: "bad", amount: "1.234", reason: "x" }),
    ).rejects.toMatchObject({
      errorName: "validation_error",
      details: [{ path: "amount", message: "must have at most 2 decimal places for DZD" }],
    });
    await expect(
      refundFromConsole(db, actor, { paymentId: intent.paymentId, formKey: "no-reason", amount: "1", reason: " " }),
    ).rejects.toMatchObject({
      errorName: "validation_error",
      details: [{ path: "description", message: expect.any(String) }],
    });
    expect(
      (await getPaymentDetail(db, { service: actor.service, paymentId: intent.paymentId })).amounts.refundedMinor,
    ).toBe(0);
  });

  it("captures part of a reservation and releases another, by the console user", async () => {
    const db = await getDb();
    const captured = await paidIntent(api, merchant, { amount: 40, captureMethod: "RESERVATION" });
    await captureFromConsole(db, actor, { paymentId: captured.paymentId, formKey: "cap-1", amount: "15" });
    const afterCapture = await getPaymentDetail(db, { service: actor.service, paymentId: captured.paymentId });
    expect(afterCapture.amounts).toMatchObject({ capturedMinor: 1500, refundableMinor: 1500 });
    expect(afterCapture.captures).toEqual([
      { id: expect.any(String), amountMinor: 1500, releasedMinor: 2500, createdAt: expect.any(Date) },
    ]);
    expect(afterCapture.timeline.at(-1)).toMatchObject({
      to: "SUCCEEDED",
      cause: { kind: "console", userEmail: EMAIL },
    });

    const released = await paidIntent(api, merchant, { amount: 40, captureMethod: "RESERVATION" });
    expect((await getPaymentDetail(db, { service: actor.service, paymentId: released.paymentId })).allows).toEqual({
      capture: true,
      release: true,
      refund: false,
    });
    await releaseFromConsole(db, actor, { paymentId: released.paymentId, formKey: "rel-1" });
    expect(
      (await getPaymentDetail(db, { service: actor.service, paymentId: released.paymentId })).timeline.at(-1),
    ).toMatchObject({
      to: "CANCELED",
      cause: { kind: "console", userEmail: EMAIL },
    });
  });
});
