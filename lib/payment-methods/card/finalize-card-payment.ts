import { eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { cardPayments, payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import type { BeforeCommit } from "../../idempotency/claim-idempotency-key";
import { logger } from "../../log";
import {
  completeProviderOperation,
  type ProviderOperationHandler,
  type ProviderOperationRow,
} from "../../provider-operations";
import { cardCancel, cardCapture, cardRefund } from "./card-operations";
import { cardProvider } from "../../providers/card-provider";
import { expirePayment } from "../../payments/core/expire-payment";
import { cardFunds } from "./card-funds";
import { isPastGrace } from "../../payments/core/payment-expiry";
import { isPaymentId, lockPaymentWithService, type PaymentRow } from "../../db/payment-record";
import { checkStatusCode } from "../../payments/core/payment-state";
import type { CardFinalizeResult } from "./card-finalize-result";
import type { StateChangeCause } from "../../payments/core/state-change-cause";
import type { CardFinalizeOutcome } from "./finalize-card-payment.schema";
import { failPayment, keepCard, reverseAtProvider, settlePayment } from "./finalize-card-payment-steps";

/**
 * Card finalize (interface "Payment intents" 3 and "Events" 3): reads the provider intent
 * back and settles the gateway payment by it. DIRECT becomes SUCCEEDED (2), RESERVATION
 * PRE_AUTHORIZED (13), and a card the buyer chose to save becomes one saved card. Every call
 * takes the payment's row lock first, so the hosted page, the merchant's finalize and the
 * provider's event, however often and however parallel, settle it exactly once; later calls
 * answer the first outcome. A provider intent that failed fails the payment (3); one that
 * succeeded for a payment that can no longer take it (expired, failed) is reversed at the
 * provider. What it found is a `CardFinalizeResult` each caller maps (`settledOrThrow` for the API).
 */
export async function finalizeCardPayment(
  db: Db,
  options: {
    paymentId: string;
    paymentIntentId: string;
    /** The provider payment method the caller says was confirmed; null when only the intent is known. */
    externalCardId: string | null;
    /**
     * Who finalizes: the buyer's card page, the merchant's API call, or the provider's event and
     * reconciliation (system).
     */
    cause: StateChangeCause;
    /**
     * Called with the outcome just before the transaction commits (the request's idempotent answer is stored
     * there: endpoint.ts).
     */
    storeAnswer?: BeforeCommit<CardFinalizeOutcome>;
  },
): Promise<CardFinalizeResult> {
  const provider = cardProvider();
  if (!isPaymentId(options.paymentId)) return { kind: "unknown_intent" };
  const [known] = await db
    .select({
      providerIntentId: cardPayments.providerIntentId,
      finalizedAt: cardPayments.finalizedAt,
      serviceId: payments.serviceId,
      country: payments.country,
    })
    .from(cardPayments)
    .innerJoin(payments, eq(payments.id, cardPayments.paymentId))
    .where(eq(cardPayments.paymentId, options.paymentId));
  if (!known || known.providerIntentId !== options.paymentIntentId) return { kind: "unknown_intent" };
  const account = { serviceId: known.serviceId, country: known.country };
  // Asked before the payment is locked (no provider call inside a transaction). The gateway's own
  // changes of the intent (capture, cancel, refund) only run once finalize has settled, so what
  // was read here is what the settle below acts on; a later finalize answers the first outcome.
  const read = await askProvider(() => provider.retrievePaymentIntent(db, { id: known.providerIntentId, account }));
  if (!read.ok) return { kind: "provider_unavailable" };
  const intent = read.value;
  if (!intent || intent.metadata.paymentId !== options.paymentId) return { kind: "unknown_intent" };
  let method = null;
  // The card's brand and last 4 are kept with the payment (the console shows and searches them),
  // so the first finalize of a confirmed card reads its payment method, saved or not.
  const confirmed = intent.status === "succeeded" || intent.status === "requires_capture";
  if (intent.paymentMethodId && (intent.setupFutureUsage || (confirmed && !known.finalizedAt))) {
    const paymentMethodId = intent.paymentMethodId;
    const readMethod = await askProvider(() => provider.retrievePaymentMethod(db, { id: paymentMethodId, account }));
    // Saving the card needs it; the console's brand and last 4 alone do not hold up a payment
    // whose money the provider has taken: without them it settles all the same.
    if (!readMethod.ok && intent.setupFutureUsage) return { kind: "provider_unavailable" };
    method = readMethod.ok ? readMethod.value : null;
  }
  const followUps: ProviderOperationRow[] = [];
  const result = await db.transaction(async (tx): Promise<CardFinalizeResult> => {
    const row = await lockPaymentWithService(tx, options.paymentId);
    if (!row) return { kind: "unknown_intent" };
    const { payment } = row;
    const now = serviceClock(row.service).now();
    const [card] = await tx.select().from(cardPayments).where(eq(cardPayments.paymentId, payment.id));
    if (!card) return { kind: "unknown_intent" };

    if (card.finalizedAt) {
      if (options.externalCardId !== null && options.externalCardId !== card.providerPaymentMethodId)
        return { kind: "wrong_card" };
      const outcome = finalized(payment, card.savedCardId);
      await options.storeAnswer?.(tx, outcome);
      return { kind: "settled", outcome };
    }
    if (options.externalCardId !== null && options.externalCardId !== intent.paymentMethodId)
      return { kind: "wrong_card" };

    switch (intent.status) {
      case "succeeded":
      case "requires_capture":
        break;
      case "requires_payment_method":
        if (!intent.lastErrorCode) return { kind: "awaiting_buyer", step: "confirmation" };
        if (payment.state === "REQUIRES_ACTION") {
          followUps.push(
            await failPayment(tx, {
              payment,
              reason: intent.lastErrorCode,
              now,
              intentId: intent.id,
              cause: options.cause,
            }),
          );
        }
        return { kind: "declined", reason: intent.lastErrorCode };
      case "requires_action":
        return { kind: "awaiting_buyer", step: "3ds" };
      case "canceled":
        // Canceled by the gateway after a refusal: the refusal is the answer.
        if (intent.lastErrorCode) return { kind: "declined", reason: intent.lastErrorCode };
        return { kind: "canceled_at_provider" };
    }

    // The provider has taken or reserved the money from here on.
    if (payment.state !== "REQUIRES_ACTION") {
      followUps.push(...(await reverseAtProvider(tx, { payment, intent })));
      return { kind: "reversed", state: payment.state };
    }
    if (isPastGrace(payment, now)) {
      await expirePayment(tx, { payment, now, funds: cardFunds, closeUnfinished: false });
      followUps.push(...(await reverseAtProvider(tx, { payment, intent })));
      return { kind: "expired" };
    }
    const savedCardId = await keepCard(tx, { payment, intent, method, now });
    const updated = await settlePayment(tx, { payment, intent, now, cause: options.cause });
    await tx
      .update(cardPayments)
      .set({
        finalizedAt: now,
        providerPaymentMethodId: intent.paymentMethodId,
        savedCardId,
        cardBrand: method?.brand ?? null,
        cardLast4: method?.last4 ?? null,
      })
      .where(eq(cardPayments.paymentId, payment.id));
    const outcome = finalized(updated, savedCardId);
    await options.storeAnswer?.(tx, outcome);
    return { kind: "settled", outcome };
  });
  // The provider calls the settle decided on, after it committed; one that cannot reach the
  // provider now stays recorded and the reconciliation job carries it out.
  for (const operation of followUps)
    await completeProviderOperation(db, operation, cardHandlerOf(operation)).catch(() => undefined);
  return result;
}

// The card provider's handlers (cardMethod.providerOperations): the follow-ups finalize records
// are the card's own cancels and refunds (finalize-card-payment-steps.ts), so it finds their
// handler here rather than in the list of every method's (lib/provider-operation-registry, above the methods).
const CARD_HANDLERS = new Map<string, ProviderOperationHandler>(
  [cardCapture, cardCancel, cardRefund].map((handler) => [`${handler.provider}:${handler.kind}`, handler]),
);

function cardHandlerOf(operation: Pick<ProviderOperationRow, "provider" | "kind">): ProviderOperationHandler {
  const handler = CARD_HANDLERS.get(`${operation.provider}:${operation.kind}`);
  if (!handler) throw new Error(`no provider operation handler for ${operation.provider}:${operation.kind}`);
  return handler;
}

function finalized(payment: PaymentRow, savedCardId: string | null): CardFinalizeOutcome {
  return {
    status: "succeeded",
    paymentId: payment.id,
    ...(savedCardId ? { cardId: savedCardId } : {}),
    statusCode: checkStatusCode(payment.state),
  };
}

/** A provider that cannot be read leaves the payment as it is (`provider_unavailable`). */
async function askProvider<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    // An ApiError is a refusal the gateway itself raised (not the provider being away): it stays one.
    if (error instanceof ApiError) throw error;
    logger.warn({ err: error }, "card provider could not be read");
    return { ok: false };
  }
}
