import { and, eq, isNull, sql } from "drizzle-orm";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { cardPayments, paymentCaptures, payments, savedCards } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import type { BeforeCommit } from "../../idempotency/claim-idempotency-key";
import { logger } from "../../log";
import {
  beginProviderOperation,
  completeProviderOperation,
  findProviderOperation,
  operationId,
  providerUnavailable,
  type ProviderOperationRow,
} from "../../provider-operations";
import { cardProvider } from "../../providers/card/card-provider";
import type { ProviderErrorCode, ProviderPaymentIntent, ProviderPaymentMethod } from "../../providers/card/port";
import "../core/card-operations";
import { applyTransition } from "../core/apply-transition";
import { expirePayment } from "../core/expire-payment";
import type { CardFinalizeOutcome } from "./finalize-card-payment.schema";
import { FAILURE_REASON, STATUS_TEXT } from "../core/payment-messages";
import { intentExpired, isPastGrace } from "../core/payment-expiry";
import { isPaymentId, lockPaymentWithService, type PaymentRow } from "../core/payment-record";
import { checkStatusCode } from "../core/payment-state";

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
  if (!isPaymentId(options.paymentId)) throw noSuchIntent();
  const [known] = await db
    .select({ providerIntentId: cardPayments.providerIntentId, serviceId: payments.serviceId, country: payments.country })
    .from(cardPayments)
    .innerJoin(payments, eq(payments.id, cardPayments.paymentId))
    .where(eq(cardPayments.paymentId, options.paymentId));
  if (!known || known.providerIntentId !== options.paymentIntentId) throw noSuchIntent();
  const account = { serviceId: known.serviceId, country: known.country };
  // Asked before the payment is locked (no provider call inside a transaction). The gateway's own
  // changes of the intent (capture, cancel, refund) only run once finalize has settled, so what
  // was read here is what the settle below acts on; a later finalize answers the first outcome.
  const intent = await askProvider(() => provider.retrievePaymentIntent(db, { id: known.providerIntentId, account }));
  if (!intent || intent.metadata.paymentId !== options.paymentId) throw noSuchIntent();
  const method =
    intent.setupFutureUsage && intent.paymentMethodId
      ? await askProvider(() => provider.retrievePaymentMethod(db, { id: intent.paymentMethodId!, account }))
      : null;
  const followUps: ProviderOperationRow[] = [];
  const settled = await db.transaction(async (tx): Promise<Settled> => {
    const row = await lockPaymentWithService(tx, options.paymentId);
    if (!row) throw noSuchIntent();
    const { payment } = row;
    const now = serviceClock(row.service).now();
    const [card] = await tx.select().from(cardPayments).where(eq(cardPayments.paymentId, payment.id));
    if (!card) throw noSuchIntent();

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
        if (payment.state === "REQUIRES_ACTION") {
          followUps.push(await failPayment(tx, { payment, reason: intent.lastErrorCode, now, intentId: intent.id }));
        }
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
      followUps.push(...(await reverseAtProvider(tx, { payment, intent })));
      return { kind: "reversed", state: payment.state };
    }
    if (isPastGrace(payment, now)) {
      await expirePayment(tx, { payment, now });
      followUps.push(...(await reverseAtProvider(tx, { payment, intent })));
      return { kind: "expired" };
    }
    const savedCardId = await keepCard(tx, { payment, intent, method, now });
    const updated = await settlePayment(tx, { payment, intent, now });
    await tx
      .update(cardPayments)
      .set({ finalizedAt: now, providerPaymentMethodId: intent.paymentMethodId, savedCardId })
      .where(eq(cardPayments.paymentId, payment.id));
    const outcome = finalized(updated, savedCardId);
    await options.remember?.(tx, outcome);
    return { kind: "done", outcome };
  });
  // The provider calls the settle decided on, after it committed; one that cannot reach the
  // provider now stays recorded and the reconciliation job carries it out.
  for (const operation of followUps) await completeProviderOperation(db, operation).catch(() => undefined);

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
async function keepCard(
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
  insufficient_funds: { failureReason: FAILURE_REASON.cardInsufficientFunds, status: STATUS_TEXT.cardInsufficientFunds },
  authentication_failed: { failureReason: FAILURE_REASON.cardAuthenticationFailed, status: STATUS_TEXT.cardAuthenticationFailed },
};

/**
 * Contract section 9: a declined card, insufficient funds or a failed 3DS challenge reject
 * the payment (3). The provider intent is canceled with it (recorded here, called after the
 * commit), so no later confirmation of the same intent can take money for a failed payment.
 */
async function failPayment(tx: Db, options: { payment: PaymentRow; reason: ProviderErrorCode; now: Date; intentId: string }) {
  await applyTransition(tx, { payment: options.payment, event: "fail", now: options.now, changes: FAILURES[options.reason] });
  return recordOnce(tx, { payment: options.payment, purpose: "fail", kind: "cancel", request: { providerIntentId: options.intentId } });
}

/** Gives back what the provider took or reserved for a payment that cannot accept it any more. */
async function reverseAtProvider(tx: Db, options: { payment: PaymentRow; intent: ProviderPaymentIntent }): Promise<ProviderOperationRow[]> {
  const { payment, intent } = options;
  if (intent.status === "requires_capture") {
    return [await recordOnce(tx, { payment, purpose: "reversal", kind: "cancel", request: { providerIntentId: intent.id } })];
  }
  const remaining = intent.amountReceivedMinor - intent.amountRefundedMinor;
  if (intent.status !== "succeeded" || remaining <= 0) return [];
  const request = { providerIntentId: intent.id, reversal: true };
  return [await recordOnce(tx, { payment, purpose: "reversal", kind: "refund", amountMinor: remaining, request })];
}

/** One operation per payment and purpose, however many finalizes and events race to record it. */
async function recordOnce(
  tx: Db,
  options: { payment: PaymentRow; purpose: string; kind: string; amountMinor?: number; request: Record<string, unknown> },
): Promise<ProviderOperationRow> {
  const id = operationId(`card-${options.purpose}:${options.payment.id}`);
  const account = { serviceId: options.payment.serviceId, country: options.payment.country };
  const existing = await findProviderOperation(tx, id, { paymentId: options.payment.id });
  if (existing) return existing;
  return beginProviderOperation(tx, { id, paymentId: options.payment.id, provider: "card", kind: options.kind, amountMinor: options.amountMinor, request: { ...options.request, account } });
}

/** A provider that cannot be read answers 503 provider_unavailable; its refusals stay as they are. */
async function askProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    logger.warn({ err: error }, "card provider could not be read");
    throw providerUnavailable();
  }
}
