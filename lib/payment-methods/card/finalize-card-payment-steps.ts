import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { paymentCaptures, savedCards } from "../../db/schema";
import type { ProviderOperationRow } from "../../provider-operations";
import type { ProviderErrorCode, ProviderPaymentIntent, ProviderPaymentMethod } from "../../providers/card/port";
import { applyTransition } from "../../payments/core/apply-transition";
import { recordCardOperationOnce } from "./card-operations";
import { FAILURE_REASON, STATUS_TEXT } from "../../payments/core/payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import type { StateChangeCause } from "../../payments/core/state-change-cause";

// The writes of a card finalize, each inside the transaction that holds the payment's row lock
// (finalize-card-payment.ts decides which run).

/** DIRECT: captured whole at once (a capture row keeps the sums derivable); RESERVATION: authorized. */
export async function settlePayment(
  tx: Db,
  options: { payment: PaymentRow; intent: ProviderPaymentIntent; now: Date; cause: StateChangeCause },
) {
  const { payment, intent, now, cause } = options;
  switch (payment.captureMethod) {
    case "DIRECT":
      if (intent.status !== "succeeded")
        throw new Error(`provider intent ${intent.id} of a DIRECT payment is ${intent.status}`);
      await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor: payment.amountMinor });
      return applyTransition(tx, {
        payment,
        event: "succeed",
        cause,
        now,
        changes: { capturedMinor: payment.amountMinor, status: STATUS_TEXT.succeeded },
      });
    case "RESERVATION":
      if (intent.status !== "requires_capture")
        throw new Error(`provider intent ${intent.id} of a RESERVATION is ${intent.status}`);
      return applyTransition(tx, {
        payment,
        event: "pre_authorize",
        cause,
        now,
        changes: { authorizedAt: now, status: STATUS_TEXT.cardAuthorized },
      });
  }
}

/**
 * The saved card this payment used or created: paying with a saved card makes it the most
 * recently used; a new card the buyer chose to save becomes one saved card per physical card
 * (the provider's fingerprint), however many payments save it.
 */
export async function keepCard(
  tx: Db,
  options: { payment: PaymentRow; intent: ProviderPaymentIntent; method: ProviderPaymentMethod | null; now: Date },
): Promise<string | null> {
  const { payment, intent, method, now } = options;
  if (!intent.paymentMethodId) return null;
  const [used] = await tx
    .update(savedCards)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(savedCards.providerPaymentMethodId, intent.paymentMethodId),
        eq(savedCards.customerId, payment.customerId),
        isNull(savedCards.deletedAt),
      ),
    )
    .returning({ id: savedCards.id });
  if (used) return used.id;
  if (!intent.setupFutureUsage) return null;

  if (!method || method.detached) return null;
  const [saved] = await tx
    .insert(savedCards)
    .values({
      serviceId: payment.serviceId,
      customerId: payment.customerId,
      paymentMethodCode: "CARD_PROVIDER",
      providerPaymentMethodId: method.id,
      brand: method.brand,
      last4: method.last4,
      expMonth: method.expMonth,
      expYear: method.expYear,
      fingerprint: method.fingerprint,
      createdAt: now,
      lastUsedAt: now,
    })
    .onConflictDoUpdate({
      target: [savedCards.customerId, savedCards.fingerprint],
      targetWhere: sql`${savedCards.deletedAt} IS NULL`,
      set: { lastUsedAt: now, expMonth: method.expMonth, expYear: method.expYear },
    })
    .returning({ id: savedCards.id });
  return saved!.id;
}

const FAILURES: Record<ProviderErrorCode, { failureReason: string; status: string }> = {
  card_declined: { failureReason: FAILURE_REASON.cardDeclined, status: STATUS_TEXT.cardDeclined },
  insufficient_funds: {
    failureReason: FAILURE_REASON.cardInsufficientFunds,
    status: STATUS_TEXT.cardInsufficientFunds,
  },
  authentication_failed: {
    failureReason: FAILURE_REASON.cardAuthenticationFailed,
    status: STATUS_TEXT.cardAuthenticationFailed,
  },
};

/**
 * Contract section 9: a declined card, insufficient funds or a failed 3DS challenge reject
 * the payment (3). The provider intent is canceled with it (recorded here, called after the
 * commit), so no later confirmation of the same intent can take money for a failed payment.
 */
export async function failPayment(
  tx: Db,
  options: { payment: PaymentRow; reason: ProviderErrorCode; now: Date; intentId: string; cause: StateChangeCause },
) {
  await applyTransition(tx, {
    payment: options.payment,
    event: "fail",
    cause: options.cause,
    now: options.now,
    changes: FAILURES[options.reason],
  });
  return recordCardOperationOnce(tx, {
    payment: options.payment,
    purpose: "fail",
    kind: "cancel",
    request: { providerIntentId: options.intentId },
  });
}

/** Gives back what the provider took or reserved for a payment that cannot accept it any more. */
export async function reverseAtProvider(
  tx: Db,
  options: { payment: PaymentRow; intent: ProviderPaymentIntent },
): Promise<ProviderOperationRow[]> {
  const { payment, intent } = options;
  if (intent.status === "requires_capture") {
    return [
      await recordCardOperationOnce(tx, {
        payment,
        purpose: "reversal",
        kind: "cancel",
        request: { providerIntentId: intent.id },
      }),
    ];
  }
  const remaining = intent.amountReceivedMinor - intent.amountRefundedMinor;
  if (intent.status !== "succeeded" || remaining <= 0) return [];
  const request = { providerIntentId: intent.id, reversal: true };
  return [
    await recordCardOperationOnce(tx, {
      payment,
      purpose: "reversal",
      kind: "refund",
      amountMinor: remaining,
      request,
    }),
  ];
}
