import type { Db } from "../../db/client";
import { paymentCaptures, paymentRefunds } from "../../db/schema";
import type { ProviderAnswer, ProviderOperationRow } from "../../provider-operations";
import { applyTransition } from "./apply-transition";
import { STATUS_TEXT } from "./payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import { causeOfOperation } from "./state-change-cause";

/*
 * What a settled capture, release or refund changes in the gateway's books, whichever provider
 * moved the money (card or wallet): the payment, its capture or refund row and its outbox
 * notification, inside the settle transaction with the payment locked. The change's cause is
 * the one its request recorded with the operation (API, console user), even when
 * reconciliation settles it later.
 */

interface Settlement {
  operation: ProviderOperationRow;
  payment: PaymentRow;
  answer: ProviderAnswer;
  now: Date;
}

export async function settleCapture(
  tx: Db,
  { operation, payment, answer, now }: Settlement,
): Promise<Record<string, unknown>> {
  const amountMinor = operation.amountMinor!;
  await tx
    .insert(paymentCaptures)
    .values({ paymentId: payment.id, amountMinor, releasedMinor: Number(answer.data?.releasedMinor ?? 0) });
  await applyTransition(tx, {
    payment,
    event: "capture",
    cause: causeOfOperation(operation),
    now,
    changes: { capturedMinor: payment.capturedMinor + amountMinor, status: STATUS_TEXT.captured },
    notification: { capturedMinor: amountMinor },
  });
  return {};
}

/**
 * A release the merchant asked for (`request.release`) cancels the payment when the provider
 * confirms; a stale release (the 7-day sweep) or a reversal already changed the payment when
 * the operation was recorded, so settling only records the provider's answer.
 */
export async function settleRelease(tx: Db, { operation, payment, now }: Settlement): Promise<Record<string, unknown>> {
  if (operation.request.release === true && payment.state === "PRE_AUTHORIZED") {
    await applyTransition(tx, {
      payment,
      event: "release",
      cause: causeOfOperation(operation),
      now,
      changes: { status: STATUS_TEXT.released },
    });
  }
  return {};
}

/**
 * Books the refund. Returns the payment's totals as this refund left them, so the answer to
 * its request does not depend on other refunds of the payment settling around it.
 */
export async function settleRefund(
  tx: Db,
  { operation, payment, answer, now }: Settlement,
): Promise<Record<string, unknown>> {
  // A reversal of a charge the gateway never accepted moves no gateway books.
  if (operation.request.reversal === true) return {};
  const amountMinor = operation.amountMinor!;
  const refundedMinor = payment.refundedMinor + amountMinor;
  const full = refundedMinor === payment.capturedMinor;
  const [refund] = await tx
    .insert(paymentRefunds)
    .values({
      paymentId: payment.id,
      amountMinor,
      description: String(operation.request.description ?? ""),
      reason: typeof operation.request.reason === "string" ? operation.request.reason : null,
      providerReference: answer.reference,
    })
    .returning({ id: paymentRefunds.id });
  const updated = await applyTransition(tx, {
    payment,
    event: full ? "refund_full" : "refund_partial",
    cause: causeOfOperation(operation),
    now,
    changes: { refundedMinor, status: full ? STATUS_TEXT.refunded : STATUS_TEXT.partiallyRefunded },
    notification: { refundedMinor: amountMinor },
  });
  return {
    refundId: refund!.id,
    refundedTotalMinor: updated.refundedMinor,
    state: updated.state,
    status: updated.status,
  };
}
