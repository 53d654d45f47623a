import { eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { findPayment, lockPaymentWithService, type PaymentRow } from "../../db/payment-record";
import { paymentCaptures, redirectPayments } from "../../db/schema";
import { logger } from "../../log";
import { ApiError } from "../../errors/api-error";
import {
  beginProviderOperation,
  completeProviderOperation,
  findProviderOperation,
  operationId,
  providerCallTimeoutMs,
  withTimeLimit,
  type ProviderOperationRow,
} from "../../provider-operations";
import { applyTransition } from "../../payments/core/apply-transition";
import { expirePayment } from "../../payments/core/expire-payment";
import { redirectFunds } from "./redirect-funds";
import { isExpiredIntent } from "../../payments/core/payment-expiry";
import { FAILURE_REASON, STATUS_TEXT } from "../../payments/core/payment-messages";
import { isTerminal } from "../../payments/core/payment-state";
import type { StateChangeCause } from "../../payments/core/state-change-cause";
import type { RedirectOutcome, RedirectProvider } from "../contract/redirect-provider";
import { redirectRefundHandler, redirectReservationHandlers } from "./redirect-operations";
import { findRedirectPayment, providerLocaleOf, redirectReversalId, type RedirectPaymentRow } from "./redirect-record";

/**
 * How long after its registration an order of a payment that ended without it is still asked about (a late
 * completion to reverse).
 */
export const LATE_COMPLETION_WATCH_MS = 2 * 3600_000;

/** What asking the provider about a redirect payment led to. */
export type RedirectSettlement =
  /** The payment took the provider's outcome (paid or declined), now or before. */
  | { kind: "settled"; payment: PaymentRow }
  /**
   * The provider took money for a payment that could no longer accept it (expired): given back, the payment
   * unchanged.
   */
  | { kind: "reversed"; payment: PaymentRow }
  /** The order still awaits the buyer, or was never registered. */
  | { kind: "waiting"; payment: PaymentRow }
  /** The provider could not be asked: a later return or the reconciliation job asks again. */
  | { kind: "unavailable"; payment: PaymentRow }
  | { kind: "unknown_payment" };

/**
 * Contract 15, "Back from the provider" and "A buyer who never comes back": the outcome of a
 * redirect payment is taken from the provider's own answer about its order, never from the
 * buyer's return address. Whoever asks (the buyer's return, the reconciliation job) settles it
 * through here, once: the payment row is locked and a settled order is never settled again. A
 * payment the provider completed after it expired is not revived: the money is given back at
 * once (a refund operation marked as a reversal) and the payment stays expired. A provider's
 * verified notification (`reported`) settles the same way, without asking.
 */
export async function settleRedirectPayment(
  db: Db,
  options: {
    paymentId: string;
    provider: RedirectProvider;
    cause: StateChangeCause;
    reported?: { orderId: string; outcome: RedirectOutcome };
  },
): Promise<RedirectSettlement> {
  const { paymentId, provider, reported } = options;
  const [payment, redirect] = await Promise.all([findPayment(db, paymentId), findRedirectPayment(db, paymentId)]);
  if (!payment || !redirect) return { kind: "unknown_payment" };
  if (!redirect.providerOrderId || redirect.finishedAt)
    return { kind: isTerminal(payment.state) ? "settled" : "waiting", payment };
  // A verified notification about another order of this payment (an earlier registration) says nothing of its order.
  if (reported && reported.orderId !== redirect.providerOrderId)
    return { kind: isTerminal(payment.state) ? "settled" : "waiting", payment };

  // A verified notification is the provider's own word; otherwise the provider is asked.
  let outcome: RedirectOutcome | null = reported?.outcome ?? null;
  if (!outcome) {
    try {
      const account = await provider.account(db, payment.serviceId);
      if (!account) return { kind: "unavailable", payment };
      outcome = await withTimeLimit(
        provider.outcome({ account, orderId: redirect.providerOrderId, locale: providerLocaleOf(payment) }),
        providerCallTimeoutMs(),
      );
    } catch (error) {
      logger.warn({ err: error, paymentId }, "redirect provider could not be asked about its order");
      await markAsked(db, paymentId);
      return { kind: "unavailable", payment };
    }
  }
  const told = outcome;

  const { settlement, reversal } = await db.transaction(async (tx) => {
    const locked = await lockPaymentWithService(tx, paymentId);
    const row = await findRedirectPayment(tx, paymentId, { lock: true });
    if (!locked || !row) return { settlement: { kind: "unknown_payment" as const }, reversal: null };
    const now = serviceClock(locked.service).now();
    return applyOutcome(tx, {
      payment: locked.payment,
      redirect: row,
      outcome: told,
      now,
      cause: options.cause,
      provider,
    });
  });
  if (reversal) await giveBack(db, reversal, provider);
  return settlement;
}

async function applyOutcome(
  tx: Db,
  options: {
    payment: PaymentRow;
    redirect: RedirectPaymentRow;
    outcome: RedirectOutcome;
    now: Date;
    cause: StateChangeCause;
    provider: RedirectProvider;
  },
): Promise<{ settlement: RedirectSettlement; reversal: ProviderOperationRow | null }> {
  const { redirect, outcome, now, cause } = options;
  let payment = options.payment;
  if (redirect.finishedAt) return { settlement: { kind: "settled", payment }, reversal: null };
  // Past its lifetime the payment fails as expired first, whatever the provider says: it cannot be revived.
  if (payment.state === "REQUIRES_ACTION" && isExpiredIntent(payment, now))
    payment = await expirePayment(tx, { payment, now, funds: redirectFunds(options.provider) });

  if (payment.state === "REQUIRES_ACTION") {
    switch (outcome.kind) {
      case "awaiting_buyer":
        await markAsked(tx, payment.id);
        return { settlement: { kind: "waiting", payment }, reversal: null };
      case "authorized":
        // A RESERVATION's pre-authorization of the whole amount: PRE_AUTHORIZED, captured or released later.
        if (payment.captureMethod === "RESERVATION" && outcome.amountMinor === payment.amountMinor) {
          const authorized = await applyTransition(tx, {
            payment,
            event: "pre_authorize",
            cause,
            now,
            changes: {
              authorizedAt: now,
              status: STATUS_TEXT.cardAuthorized,
              approvalCode: outcome.approvalCode,
              providerOrderId: redirect.providerOrderId,
            },
          });
          await markFinished(tx, payment.id);
          return { settlement: { kind: "settled", payment: authorized }, reversal: null };
        }
        logger.error(
          { paymentId: payment.id, heldMinor: outcome.amountMinor },
          "redirect provider reports a hold this payment did not ask for",
        );
        break;
      case "paid":
        // Anything but the whole amount is not this payment's charge: declined below, and given back.
        if (payment.captureMethod === "DIRECT" && outcome.amountMinor === payment.amountMinor) {
          await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor: payment.amountMinor });
          const paid = await applyTransition(tx, {
            payment,
            event: "succeed",
            cause,
            now,
            changes: {
              capturedMinor: payment.amountMinor,
              status: STATUS_TEXT.succeeded,
              approvalCode: outcome.approvalCode,
              providerOrderId: redirect.providerOrderId,
            },
          });
          await markFinished(tx, payment.id);
          return { settlement: { kind: "settled", payment: paid }, reversal: null };
        }
        logger.error(
          { paymentId: payment.id, paidMinor: outcome.amountMinor },
          "redirect provider reports another amount than the payment's",
        );
        break;
      case "declined":
      case "returned": {
        const failed = await applyTransition(tx, {
          payment,
          event: "fail",
          cause,
          now,
          changes: {
            failureReason: FAILURE_REASON.providerDeclined,
            status:
              outcome.kind === "declined"
                ? `${STATUS_TEXT.redirectDeclined}: ${outcome.message}`.slice(0, 200)
                : STATUS_TEXT.redirectDeclined,
          },
        });
        await markFinished(tx, payment.id);
        return { settlement: { kind: "settled", payment: failed }, reversal: null };
      }
    }
  }

  // The payment cannot take the money (expired, or ended otherwise): a paid order is given back at once,
  // a pre-authorization released (never left open at the provider).
  if (outcome.kind === "paid" || outcome.kind === "authorized") {
    const reversal = await recordReversal(tx, {
      payment,
      redirect,
      amountMinor: outcome.amountMinor,
      kind: outcome.kind,
      now,
      provider: options.provider,
    });
    await markFinished(tx, payment.id);
    return { settlement: { kind: "reversed", payment }, reversal };
  }
  const watchOver =
    !redirect.registeredAt || now.getTime() - redirect.registeredAt.getTime() > LATE_COMPLETION_WATCH_MS;
  if (outcome.kind !== "awaiting_buyer" || watchOver) await markFinished(tx, payment.id);
  else await markAsked(tx, payment.id);
  return { settlement: { kind: isTerminal(payment.state) ? "settled" : "waiting", payment }, reversal: null };
}

/** One reversal per payment, however many returns and runs of the job see the late completion. */
async function recordReversal(
  tx: Db,
  options: {
    payment: PaymentRow;
    redirect: RedirectPaymentRow;
    amountMinor: number;
    kind: "paid" | "authorized";
    now: Date;
    provider: RedirectProvider;
  },
) {
  const { payment, redirect } = options;
  const id = redirectReversalId(payment.id);
  const existing = await findProviderOperation(tx, id, { paymentId: payment.id });
  if (existing) return existing;
  const hold = options.kind === "authorized";
  return beginProviderOperation(tx, {
    id,
    paymentId: payment.id,
    provider: options.provider.provider,
    kind: hold ? "release" : "refund",
    amountMinor: hold ? undefined : options.amountMinor,
    now: options.now,
    request: {
      orderId: redirect.providerOrderId,
      serviceId: payment.serviceId,
      locale: providerLocaleOf(payment),
      reversal: true,
      description: "Late completion reversed",
      reason: "late_completion",
    },
  });
}

async function giveBack(db: Db, operation: ProviderOperationRow, provider: RedirectProvider) {
  const handler =
    operation.kind === "release"
      ? redirectReservationHandlers(provider).find((one) => one.kind === "release")!
      : redirectRefundHandler(provider);
  try {
    await completeProviderOperation(db, operation, handler);
  } catch (error) {
    // The provider is away: reconciliation of provider operations gives it back later.
    if (!(error instanceof ApiError)) throw error;
    logger.warn({ operationId: operation.id }, "late completion reversal left for reconciliation");
  }
}

async function markAsked(db: Db, paymentId: string) {
  await db.update(redirectPayments).set({ lastAskedAt: new Date() }).where(eq(redirectPayments.paymentId, paymentId));
}

async function markFinished(tx: Db, paymentId: string) {
  const now = new Date();
  await tx
    .update(redirectPayments)
    .set({ lastAskedAt: now, finishedAt: now })
    .where(eq(redirectPayments.paymentId, paymentId));
}
