import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, services } from "@/lib/db/schema";
import { cardProviderPaymentIntents } from "@/simulators/card/card-tables";
import { reconcileCardPayments } from "@/lib/payment-methods/card/reconcile-card-payments";
import { redeliverPendingEvents } from "@/simulators/card/sandbox-event-delivery";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  confirmAtProvider,
  completeOnPage,
  loadCardPage,
  eventually,
  notificationsOf,
  postSignedEvent,
  proceedWithCard,
  providerEvents,
  TEST_CARDS,
} from "../support/cards";
import { advanceClock, capture, paymentRow, reconcileOperationsLater, serviceIdOf } from "../support/payments";
import { expireOpenPayments } from "@/lib/payments/operations/expire-payments";

/** Past the intent's 30 minutes and grace on the merchant's clock, then the expiry sweep. */
async function expireNow(merchant: { service: string } & Parameters<typeof advanceClock>[1]) {
  expect((await advanceClock(api, merchant, 30 * 60 + 31)).status).toBe(200);
  expect(await expireOpenPayments(await getDb(), { serviceId: await serviceIdOf(merchant) })).toBe(1);
}

/**
 * Issue 11's event faults at the provider: events that arrive out of order, and an event that
 * never arrives while the buyer never comes back to the page. Each ends with the payment as the
 * provider has it, nothing captured twice, and one notification per state change.
 */
const { api } = useTestGateway();

/** The provider's events are lost on the way: every delivery to the gateway fails. */
function loseProviderEvents() {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes("/api/v1/webhooks/card-provider")) return Promise.resolve(new Response(null, { status: 503 }));
    return realFetch(input, init);
  });
}

afterEach(() => vi.restoreAllMocks());

/**
 * Reconciliation as the job runs it two minutes from now, for one merchant's payments only (test files share
 * the database).
 */
async function reconcileLater(merchant: { service: string }, now = new Date(Date.now() + 120_000)) {
  const db = await getDb();
  const [service] = await db.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));
  return reconcileCardPayments(db, { now, serviceId: service!.id });
}

async function intentOf(id: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, id));
  return row!;
}

describe("card provider events out of order, or never", () => {
  it("an event that never arrives, a buyer who never returns: reconciliation settles the payment once", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    expect(confirmed.status).toBe(200);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("REQUIRES_ACTION");

    // Not before the payment has waited its minute: the buyer may still be on the way back.
    expect(await reconcileLater(merchant, new Date())).toBe(0);
    expect(await reconcileLater(merchant)).toBe(1);
    expect(await reconcileLater(merchant)).toBe(0);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("SUCCEEDED");
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);

    // The lost event turns up after all, and the buyer comes back: nothing changes again.
    vi.restoreAllMocks();
    const [event] = await eventually(
      () => providerEvents(confirmed.paymentIntentId),
      (events) => events.length > 0,
    );
    expect((await postSignedEvent(api, event!.payload)).status).toBe(200);
    await completeOnPage(proceeded, confirmed.paymentIntentId);
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("an event whose quick retries all failed comes by the sandbox's redelivery job and settles it", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    expect(confirmed.status).toBe(200);
    // The first delivery and its two quick retries, all refused.
    await eventually(
      () => providerEvents(confirmed.paymentIntentId),
      (events) => events.length > 0 && events.every((event) => event.attempts === 3),
    );
    expect((await paymentRow(proceeded.paymentId)).state).toBe("REQUIRES_ACTION");

    vi.restoreAllMocks();
    const undelivered = await providerEvents(confirmed.paymentIntentId);
    const redelivered = await redeliverPendingEvents(await getDb(), {
      olderThanMs: 0,
      paymentIntentId: confirmed.paymentIntentId,
    });
    expect(redelivered).toBe(undelivered.length);
    const events = await providerEvents(confirmed.paymentIntentId);
    expect(events.map((event) => [event.attempts, event.deliveredAt !== null])).toEqual(events.map(() => [4, true]));
    expect((await paymentRow(proceeded.paymentId)).state).toBe("SUCCEEDED");
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("an expiring card payment's provider intent is canceled: a page left open can't take the money", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const page = await loadCardPage(proceeded);
    await expireNow(merchant);
    expect(await paymentRow(proceeded.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    expect(await reconcileOperationsLater(proceeded.paymentId)).toBe(1);
    expect((await intentOf(page.paymentIntentId)).status).toBe("canceled");

    const late = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa }, page);
    expect(late.status).toBe(400);
    expect(await intentOf(page.paymentIntentId)).toMatchObject({ status: "canceled", amountReceivedMinor: 0 });
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("a confirm on a page open past expiry, before cancel, event lost, no return: reconciliation refunds", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const page = await loadCardPage(proceeded);
    await expireNow(merchant);
    // The buyer is faster than the cancel the expiry recorded: the provider takes the money.
    expect((await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa }, page)).status).toBe(200);
    expect(await intentOf(page.paymentIntentId)).toMatchObject({ status: "succeeded", amountReceivedMinor: 150_000 });
    // The cancel is refused now; the card reconciliation reverses the charge, once.
    await reconcileOperationsLater(proceeded.paymentId);
    // Two minutes on, on the job's own (real) clock: the payment's times are on the merchant's,
    // which the expiry moved 30 minutes on, and reconciliation reads them on that clock too.
    expect(await reconcileLater(merchant)).toBe(1);
    expect(await reconcileOperationsLater(proceeded.paymentId)).toBe(0);
    expect(await reconcileLater(merchant)).toBe(0);
    expect(await intentOf(page.paymentIntentId)).toMatchObject({
      status: "succeeded",
      amountReceivedMinor: 150_000,
      amountRefundedMinor: 150_000,
    });
    expect(await paymentRow(proceeded.paymentId)).toMatchObject({
      state: "FAILED",
      failureReason: "expired",
      capturedMinor: 0,
    });
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("a 3DS payment the buyer abandoned at the challenge is left to wait: reconciliation settles nothing", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    await confirmAtProvider(api, proceeded, { card: TEST_CARDS.threeDSecure });
    expect(await reconcileLater(merchant)).toBe(0);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("REQUIRES_ACTION");
    expect(await notificationsOf(proceeded.paymentId)).toEqual([]);
  });

  it("an authorization event that arrives after the capture leaves the captured payment as it is", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    await completeOnPage(proceeded, confirmed.paymentIntentId);
    expect((await capture(api, merchant, proceeded.paymentId, { amount: 10 })).status).toBe(200);
    vi.restoreAllMocks();

    // payment_intent.amount_capturable_updated, raised at authorization, delivered only now (twice).
    const [authorized] = await eventually(
      () => providerEvents(confirmed.paymentIntentId),
      (events) => events.length > 0,
    );
    expect(authorized!.type).toBe("payment_intent.amount_capturable_updated");
    for (const _ of [1, 2]) expect((await postSignedEvent(api, authorized!.payload)).status).toBe(200);

    expect((await paymentRow(proceeded.paymentId)).state).toBe("SUCCEEDED");
    const captures = await (
      await getDb()
    )
      .select()
      .from(paymentCaptures)
      .where(eq(paymentCaptures.paymentId, proceeded.paymentId));
    expect(captures).toHaveLength(1);
    expect(await intentOf(confirmed.paymentIntentId)).toMatchObject({ status: "succeeded", amountReceivedMinor: 1000 });
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
    ]);
  });

  it("a failure event that arrives after the buyer's return settles the refused card once", async () => {
    loseProviderEvents();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.declined });
    await completeOnPage(proceeded, confirmed.paymentIntentId).catch(() => null);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("FAILED");
    vi.restoreAllMocks();
    const [failed] = await eventually(
      () => providerEvents(confirmed.paymentIntentId),
      (events) => events.length > 0,
    );
    expect(failed!.type).toBe("payment_intent.payment_failed");
    expect((await postSignedEvent(api, failed!.payload)).status).toBe(200);
    expect(await reconcileLater(merchant)).toBe(0);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("FAILED");
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });
});
