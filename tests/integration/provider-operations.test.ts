import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { cardProviderPaymentIntents, cardProviderRefunds, paymentCaptures, providerOperations } from "@/lib/db/schema";
import { reconcileProviderOperations } from "@/lib/provider-operations";
import { ProviderCallInTransactionError } from "@/lib/provider-operations/transaction-guard";
import { cardProvider, installCardProvider } from "@/lib/providers/card/card-provider";
import type { CardProvider } from "@/lib/providers/card/port";
import { sandboxCardProvider } from "@/lib/providers/card/sandbox-card-provider";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { notificationsOf, payWithNewCard } from "../support/cards";
import { capture, paymentRow, refund, release } from "../support/payments";

const { api } = useTestGateway();

afterEach(() => installCardProvider(null));

type Fault = "before" | "after";
/** The sandbox provider, except that the next money call fails: before it applied anything, or after. */
function failingOnce(when: Fault): CardProvider {
  let armed = true;
  const fail = async <T>(apply: () => Promise<T>): Promise<T> => {
    if (!armed) return apply();
    armed = false;
    if (when === "before") throw new Error("connect ECONNRESET");
    await apply();
    throw new Error("socket hang up"); // The change is applied; the answer is lost.
  };
  return {
    ...sandboxCardProvider,
    capturePaymentIntent: (db, request) => fail(() => sandboxCardProvider.capturePaymentIntent(db, request)),
    cancelPaymentIntent: (db, request) => fail(() => sandboxCardProvider.cancelPaymentIntent(db, request)),
    refundPaymentIntent: (db, request) => fail(() => sandboxCardProvider.refundPaymentIntent(db, request)),
  };
}

async function reservedCardPayment() {
  const merchant = await createMerchant();
  const paid = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
  return { merchant, ...paid };
}

async function intentAtProvider(id: string) {
  const [row] = await (await getDb()).select().from(cardProviderPaymentIntents).where(eq(cardProviderPaymentIntents.id, id));
  return row!;
}

async function operationsOf(paymentId: string) {
  return (await getDb()).select().from(providerOperations).where(eq(providerOperations.paymentId, paymentId));
}

/** Reconciliation as the background job runs it, once the operation's lease is over. */
async function reconcileLater() {
  return reconcileProviderOperations(await getDb(), { now: new Date(Date.now() + 60 * 60_000) });
}

describe("the provider-operation boundary", () => {
  it("refuses a provider call made inside a database transaction", async () => {
    const db = await getDb();
    await expect(
      db.transaction(async () => cardProvider().retrievePaymentIntent(db, { id: "pi_none", account: { serviceId: "none", country: "DZA" } })),
    ).rejects.toBeInstanceOf(ProviderCallInTransactionError);
    await expect(cardProvider().retrievePaymentIntent(db, { id: "pi_none", account: { serviceId: "none", country: "DZA" } })).resolves.toBeNull();
  });

  for (const when of ["before", "after"] as const) {
    it(`answers 503 when the provider fails ${when} applying a capture, then the retry with the same key answers the one capture`, async () => {
      const { merchant, paymentId, paymentIntentId } = await reservedCardPayment();
      installCardProvider(failingOnce(when));
      const key = { "idempotency-key": `cap-${when}-${paymentId}` };

      const failed = await capture(api, merchant, paymentId, { amount: 1000 }, key);
      expect(failed.status).toBe(503);
      expect(failed.body.error.name).toBe("provider_unavailable");
      expect(Number(failed.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await paymentRow(paymentId)).state).toBe("PRE_AUTHORIZED");
      expect((await operationsOf(paymentId)).map((operation) => operation.status)).toEqual(["unknown"]);

      // Another money operation meanwhile is refused: the open operation is part of the lock.
      const other = await release(api, merchant, paymentId);
      expect(other.status).toBe(409);
      expect(other.body.error.name).toBe("request_in_progress");

      const retried = await capture(api, merchant, paymentId, { amount: 1000 }, key);
      expect(retried.status).toBe(200);
      expect(retried.body.data.statusCode).toBe(2);
      const again = await capture(api, merchant, paymentId, { amount: 1000 }, key);
      expect(again.status).toBe(200);

      const payment = await paymentRow(paymentId);
      expect(payment.state).toBe("SUCCEEDED");
      expect(payment.capturedMinor).toBe(100_000);
      expect(await (await getDb()).select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, paymentId))).toHaveLength(1);
      expect((await intentAtProvider(paymentIntentId)).amountReceivedMinor).toBe(100_000);
      expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized", "payment.captured"]);
    });
  }

  it("finishes an unknown refund by reconciliation: refunded once at the provider and in the books, one notification", async () => {
    const merchant = await createMerchant();
    const { paymentId, paymentIntentId } = await payWithNewCard(api, merchant);
    installCardProvider(failingOnce("after"));
    const failed = await refund(api, merchant, paymentId, { description: "partial", amount: 500 });
    expect(failed.status).toBe(503);
    expect((await paymentRow(paymentId)).state).toBe("SUCCEEDED");

    expect(await reconcileLater()).toBe(1);
    expect(await reconcileLater()).toBe(0);
    const payment = await paymentRow(paymentId);
    expect(payment.state).toBe("PARTIALLY_REFUNDED");
    expect(payment.refundedMinor).toBe(50_000);
    const refunds = await (await getDb()).select().from(cardProviderRefunds).where(eq(cardProviderRefunds.paymentIntentId, paymentIntentId));
    expect(refunds.map((row) => row.amountMinor)).toEqual([50_000]);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded", "payment.refunded"]);
  });

  it("releases through the boundary and records the provider's cancel", async () => {
    const { merchant, paymentId, paymentIntentId } = await reservedCardPayment();
    installCardProvider(failingOnce("before"));
    expect((await release(api, merchant, paymentId)).status).toBe(503);
    expect(await reconcileLater()).toBe(1);
    expect((await paymentRow(paymentId)).state).toBe("CANCELED");
    expect((await intentAtProvider(paymentIntentId)).status).toBe("canceled");
    expect((await operationsOf(paymentId)).map((operation) => [operation.kind, operation.status])).toEqual([["cancel", "succeeded"]]);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized", "payment.released"]);
  });

  it("records a provider refusal as failed, changes nothing and answers invalid_state", async () => {
    const { merchant, paymentId, paymentIntentId } = await reservedCardPayment();
    // The provider's intent was canceled behind the gateway's back: the capture is refused there.
    await sandboxCardProvider.cancelPaymentIntent(await getDb(), { id: paymentIntentId, idempotencyKey: `outside-${paymentId}`, account: { serviceId: "any", country: "DZA" } });
    const refused = await capture(api, merchant, paymentId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe("invalid_state");
    expect((await paymentRow(paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await operationsOf(paymentId)).map((operation) => [operation.kind, operation.status])).toEqual([["capture", "failed"]]);
  });
});
