import { and, eq, isNull, sql } from "drizzle-orm";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { cardPayments, paymentCaptures, savedCards } from "../db/schema";
import { ApiError } from "../http/api-error";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { cardProvider } from "../providers/card/card-provider";
import type { ProviderErrorCode, ProviderPaymentIntent } from "../providers/card/port";
import { applyTransition } from "./apply-transition";
import { expirePayment } from "./expire-payment";
import type { CardFinalizeOutcome } from "./finalize-card-payment.schema";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import { intentExpired, isPastGrace } from "./payment-expiry";
import { lockPaymentWithService, type PaymentRow } from "./payment-record";
import { checkStatusCode } from "./payment-state";

type Settled =
  | { kind: "done"; outcome: CardFinalizeOutcome }
  | { kind: "declined"; reason: ProviderErrorCode }
  | { kind: "expired" }
  | { kind: "reversed"; state: string };

const noSuchIntent = () => new ApiError("not_found", "No such provider payment intent for this payment.");

/**
 * Card finalize (interface "Payment intents" 3 and "Events" 3): reads the provider intent
 * back and settles the gateway payment by it. DIRECT becomes SUCCEEDED (2), RESERVATION
 * PRE_AUTHORIZED (13), and a card the buyer chose to save becomes one saved card. Every call
 * takes the payment's row lock first, so the hosted page, the merchant's finalize and the
 * provider's event, however often and however parallel, settle it exactly once; later calls
 * answer the first outcome. A provider intent that failed fails the payment (3) and answers
 * invalid_state; one that succeeded for a payment that can no longer take it (expired,
 * failed) is reversed at the provider.
 */
export async function finalizeCardPayment(
  db: Db,
  options: {
    paymentId: string;
    paymentIntentId: string;
    /** The provider payment method the caller says was confirmed; null when only the intent is known. */
    externalCardId: string | null;
    remember?: BeforeCommit<CardFinalizeOutcome>;
  },
): Promise<CardFinalizeOutcome> {
  const provider = cardProvider();
  const settled = await db.transaction(async (tx): Promise<Settled> => {
    const row = await lockPaymentWithService(tx, options.paymentId);
    if (!row) throw noSuchIntent();
    const { payment } = row;
    const now = serviceClock(row.service).now();
    const [card] = await tx.select().from(cardPayments).where(eq(cardPayments.paymentId, payment.id));
    if (!card || card.providerIntentId !== options.paymentIntentId) throw noSuchIntent();
    // Read under the payment's lock: every change of this intent the gateway makes holds it too.
    const intent = await provider.retrievePaymentIntent(tx, { id: card.providerIntentId });
    if (!intent || intent.metadata.paymentId !== payment.id) throw noSuchIntent();

    if (card.finalizedAt) {
      if (options.externalCardId !== null && options.externalCardId !== card.providerPaymentMethodId) throw wrongCard();
      const outcome = finalized(payment, card.savedCardId);
      await options.remember?.(tx, outcome);
      return { kind: "done", outcome };
    }
    if (options.externalCardId !== null && options.externalCardId !== intent.paymentMethodId) throw wrongCard();

    switch (intent.status) {
      case "succeeded":
      case "requires_capture":
        break;
      case "requires_payment_method":
        if (!intent.lastErrorCode) throw new ApiError("invalid_state", "The card payment has not been confirmed with the provider yet.");
        if (payment.state === "REQUIRES_ACTION") await failPayment(tx, { payment, reason: intent.lastErrorCode, now, intentId: intent.id });
        return { kind: "declined", reason: intent.lastErrorCode };
      case "requires_action":
        throw new ApiError("invalid_state", "The card payment still awaits the buyer's 3DS verification.");
      case "canceled":
        // Canceled by the gateway after a refusal: the refusal is the answer.
        if (intent.lastErrorCode) return { kind: "declined", reason: intent.lastErrorCode };
        throw new ApiError("invalid_state", "The provider canceled this card payment.");
    }

    // The provider has taken or reserved the money from here on.
    if (payment.state !== "REQUIRES_ACTION") {
      await reverseAtProvider(tx, intent);
      return { kind: "reversed", state: payment.state };
    }
    if (isPastGrace(payment, now)) {
      await expirePayment(tx, { payment, now });
      await reverseAtProvider(tx, intent);
      return { kind: "expired" };
    }
    const savedCardId = await keepCard(tx, { payment, intent, now });
    const updated = await settlePayment(tx, { payment, intent, now });
    await tx
      .update(cardPayments)
      .set({ finalizedAt: now, providerPaymentMethodId: intent.paymentMethodId, savedCardId })
      .where(eq(cardPayments.paymentId, payment.id));
    const outcome = finalized(updated, savedCardId);
    await options.remember?.(tx, outcome);
    return { kind: "done", outcome };
  });

  switch (settled.kind) {
    case "done":
      return settled.outcome;
    case "declined":
      throw new ApiError("invalid_state", `The card payment was refused by the provider (${settled.reason}).`);
    case "expired":
      throw intentExpired();
    case "reversed":
      throw new ApiError("invalid_state", `The payment can no longer complete (it is ${settled.state}); the card charge was reversed.`);
  }
}

const wrongCard = () => new ApiError("invalid_state", "externalCardId is not the card the provider confirmed for this payment.");

function finalized(payment: PaymentRow, savedCardId: string | null): CardFinalizeOutcome {
  return {
    status: "succeeded",
    paymentId: payment.id,
    ...(savedCardId ? { cardId: savedCardId } : {}),
    statusCode: checkStatusCode(payment.state),
  };
}

/** DIRECT: captured whole at once (a capture row keeps the sums derivable); RESERVATION: authorized. */
async function settlePayment(tx: Db, options: { payment: PaymentRow; intent: ProviderPaymentIntent; now: Date }) {
  const { payment, intent, now } = options;
  switch (payment.captureMethod) {
    case "DIRECT":
      if (intent.status !== "succeeded") throw new Error(`provider intent ${intent.id} of a DIRECT payment is ${intent.status}`);
      await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor: payment.amountMinor });
      return applyTransition(tx, {
        payment,
        event: "succeed",
        now,
        changes: { capturedMinor: payment.amountMinor, status: STATUS_TEXT.succeeded },
      });
    case "RESERVATION":
      if (intent.status !== "requires_capture") throw new Error(`provider intent ${intent.id} of a RESERVATION is ${intent.status}`);
      return applyTransition(tx, {
        payment,
        event: "pre_authorize",
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
async function keepCard(tx: Db, options: { payment: PaymentRow; intent: ProviderPaymentIntent; now: Date }): Promise<string | null> {
  const { payment, intent, now } = options;
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

  const method = await cardProvider().retrievePaymentMethod(tx, { id: intent.paymentMethodId });
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
  insufficient_funds: { failureReason: FAILURE_REASON.cardInsufficientFunds, status: STATUS_TEXT.cardInsufficientFunds },
  authentication_failed: { failureReason: FAILURE_REASON.cardAuthenticationFailed, status: STATUS_TEXT.cardAuthenticationFailed },
};

/**
 * Contract section 9: a declined card, insufficient funds or a failed 3DS challenge reject
 * the payment (3). The provider intent is canceled with it, so no later confirmation of the
 * same intent can take money for a payment that has already failed.
 */
async function failPayment(tx: Db, options: { payment: PaymentRow; reason: ProviderErrorCode; now: Date; intentId: string }) {
  await applyTransition(tx, { payment: options.payment, event: "fail", now: options.now, changes: FAILURES[options.reason] });
  await cardProvider().cancelPaymentIntent(tx, { id: options.intentId });
}

/** Gives back what the provider took or reserved for a payment that cannot accept it any more. */
async function reverseAtProvider(tx: Db, intent: ProviderPaymentIntent) {
  const provider = cardProvider();
  if (intent.status === "requires_capture") {
    await provider.cancelPaymentIntent(tx, { id: intent.id });
    return;
  }
  const remaining = intent.amountReceivedMinor - intent.amountRefundedMinor;
  if (intent.status === "succeeded" && remaining > 0) await provider.refundPaymentIntent(tx, { id: intent.id, amountMinor: remaining });
}
