import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, providerOperations, services } from "@/lib/db/schema";
import { cardProviderPaymentIntents, cardProviderRefunds } from "@/simulators/card/card-tables";
import { ProviderCallInTransactionError } from "@/lib/db/transaction-guard";
import { cardProvider, installCardProvider } from "@/lib/providers/card-provider";
import type { CardProvider } from "@/lib/providers/card/port";
import { CardProviderError } from "@/lib/providers/card/card-provider-error";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { notificationsOf, payWithNewCard } from "../support/cards";
import { capture, paymentRow, reconcileOperationsLater, refund, release } from "../support/payments";

const { api } = useTestGateway();

afterEach(() => installCardProvider(null));

type Fault = "before" | "after";
/**
 * The gateway's own card adapter (the Stripe SDK on the simulator), except that the next money
 * call fails: before it applied anything, or after. The adapter itself, not the simulator
 * beneath it: the idempotency key reaches the provider scoped as every other process sends it,
 * so a reconciliation run by any process of the suite asks about the same call.
 */
function failingOnce(when: Fault): CardProvider {
  const adapter = gatewayCardAdapter();
  let armed = true;
  const fail = async <T>(apply: () => Promise<T>): Promise<T> => {
    if (!armed) return apply();
    armed = false;
    if (when === "before") throw new Error("connect ECONNRESET");
    await apply();
    throw new Error("socket hang up"); // The change is applied; the answer is lost.
  };
  return {
    ...adapter,
    capturePaymentIntent: (db, request) => fail(() => adapter.capturePaymentIntent(db, request)),
    cancelPaymentIntent: (db, request) => fail(() => adapter.cancelPaymentIntent(db, request)),
    refundPaymentIntent: (db, request) => fail(() => adapter.refundPaymentIntent(db, request)),
  };
}

function gatewayCardAdapter(): CardProvider {
  installCardProvider(null);
  return cardProvider();
}

async function reservedCardPayment() {
  const merchant = await createMerchant();
  const paid = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
  return { merchant, ...paid };
}

async function intentAtProvider(id: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, id));
  return row!;
}

async function operationsOf(paymentId: string) {
  return (await getDb()).select().from(providerOperations).where(eq(providerOperations.paymentId, paymentId));
}

describe("the provider-operation boundary", () => {
  it("refuses a provider call made inside a database transaction", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const [service] = await db.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));
    const account = { serviceId: service!.id, country: "DZA" };
    await expect(
      db.transaction(async () => cardProvider().retrievePaymentIntent(db, { id: "pi_none", account })),
    ).rejects.toBeInstanceOf(ProviderCallInTransactionError);
    await expect(cardProvider().retrievePaymentIntent(db, { id: "pi_none", account })).resolves.toBeNull();
  });

  for (const when of ["before", "after"] as const) {
    it(`answers 503 if the provider fails ${when} capturing; a same-key retry answers the one capture`, async () => {
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
      expect(
        await (await getDb()).select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, paymentId)),
      ).toHaveLength(1);
      expect((await intentAtProvider(paymentIntentId)).amountReceivedMinor).toBe(100_000);
      expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual([
        "payment.pre_authorized",
        "payment.captured",
      ]);
    });
  }

  it("reconciles an unknown refund: refunded once at the provider and in the books, one notification", async () => {
    const merchant = await createMerchant();
    const { paymentId, paymentIntentId } = await payWithNewCard(api, merchant);
    installCardProvider(failingOnce("after"));
    const failed = await refund(api, merchant, paymentId, { description: "partial", amount: 500 });
    expect(failed.status).toBe(503);
    expect((await paymentRow(paymentId)).state).toBe("SUCCEEDED");

    expect(await reconcileOperationsLater(paymentId)).toBe(1);
    expect(await reconcileOperationsLater(paymentId)).toBe(0);
    const payment = await paymentRow(paymentId);
    expect(payment.state).toBe("PARTIALLY_REFUNDED");
    expect(payment.refundedMinor).toBe(50_000);
    const refunds = await (
      await getDb()
    )
      .select()
      .from(cardProviderRefunds)
      .where(eq(cardProviderRefunds.paymentIntentId, paymentIntentId));
    expect(refunds.map((row) => row.amountMinor)).toEqual([50_000]);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded", "payment.refunded"]);
  });

  it("releases through the boundary and records the provider's cancel", async () => {
    const { merchant, paymentId, paymentIntentId } = await reservedCardPayment();
    installCardProvider(failingOnce("before"));
    expect((await release(api, merchant, paymentId)).status).toBe(503);
    expect(await reconcileOperationsLater(paymentId)).toBe(1);
    expect((await paymentRow(paymentId)).state).toBe("CANCELED");
    expect((await intentAtProvider(paymentIntentId)).status).toBe("canceled");
    expect((await operationsOf(paymentId)).map((operation) => [operation.kind, operation.status])).toEqual([
      ["cancel", "succeeded"],
    ]);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.released",
    ]);
  });

  it("records a provider refusal as failed, changes nothing and answers invalid_state", async () => {
    const { merchant, paymentId, paymentIntentId } = await reservedCardPayment();
    // The provider refuses the capture (as it answers for an intent it no longer holds), while
    // the books on both sides stay as they were: a refusal moves no money.
    installCardProvider({
      ...gatewayCardAdapter(),
      capturePaymentIntent: async () => {
        throw new CardProviderError(400, "payment_intent_unexpected_state", "This PaymentIntent is canceled.");
      },
    });
    const refused = await capture(api, merchant, paymentId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe("invalid_state");
    expect((await paymentRow(paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await operationsOf(paymentId)).map((operation) => [operation.kind, operation.status])).toEqual([
      ["capture", "failed"],
    ]);
    expect((await intentAtProvider(paymentIntentId)).status).toBe("requires_capture");
  });

  it("lets exactly 3 of 20 parallel 30% card refunds succeed: each reserves its amount, none waits", async () => {
    const merchant = await createMerchant();
    const { paymentId, paymentIntentId } = await payWithNewCard(api, merchant, { intent: { amount: 1000 } });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        refund(api, merchant, paymentId, { description: `r${index}`, amount: 300 }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(17).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400))
      expect(response.body.error.name).toBe("amount_exceeds_refundable");
    expect(
      responses
        .filter((r) => r.status === 200)
        .map((r) => r.body.data.totalRefundedAmount)
        .sort(),
    ).toEqual([300, 600, 900]);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 90_000 });
    const refunds = await (
      await getDb()
    )
      .select()
      .from(cardProviderRefunds)
      .where(eq(cardProviderRefunds.paymentIntentId, paymentIntentId));
    expect(refunds).toHaveLength(3);
    expect((await notificationsOf(paymentId)).filter((n) => n.type === "payment.refunded")).toHaveLength(3);
  });
});
