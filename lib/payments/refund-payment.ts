import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { paymentRefunds } from "../db/schema";
import { ApiError } from "../http/api-error";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { formatMinorUnits } from "../money/amount";
import { minorUnitsOrThrow } from "../money/amount.schema";
import { applyTransition } from "./apply-transition";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { refundFunds } from "./payment-funds";
import type { PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";

export interface RefundOutcome {
  payment: PaymentRow;
  refundId: string;
  refundedMinor: number;
}

/**
 * Refunds a captured payment fully or in part, crediting the wallet. Amounts are integers of
 * minor units, so 0.1 then 0.2 of 0.3 leaves exactly nothing refundable (REFUNDED).
 */
export async function refundPayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    input: { description: string; amount?: number; reason?: string };
    remember?: BeforeCommit<RefundOutcome>;
  },
): Promise<RefundOutcome> {
  const now = serviceClock(options.principal.service).now();
  return db.transaction(async (tx) => {
    const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
    assertTransition(payment.state, "refund_partial");
    const refundable = payment.capturedMinor - payment.refundedMinor;
    const { amount } = options.input;
    const amountMinor = amount === undefined ? refundable : minorUnitsOrThrow(amount, payment.currency);
    if (amountMinor > refundable) {
      throw new ApiError(
        "amount_exceeds_refundable",
        `The refund amount is above the remaining refundable ${formatMinorUnits(refundable, payment.currency)} ${payment.currency}.`,
      );
    }
    const refundedMinor = payment.refundedMinor + amountMinor;
    const full = refundedMinor === payment.capturedMinor;
    const { reference } = await refundFunds(tx, payment, amountMinor);
    const [refund] = await tx
      .insert(paymentRefunds)
      .values({
        paymentId: payment.id,
        amountMinor,
        description: options.input.description,
        reason: options.input.reason ?? null,
        providerReference: reference,
      })
      .returning({ id: paymentRefunds.id });
    const updated = await applyTransition(tx, {
      payment,
      event: full ? "refund_full" : "refund_partial",
      now,
      changes: { refundedMinor, status: full ? STATUS_TEXT.refunded : STATUS_TEXT.partiallyRefunded },
      notification: { refundedMinor: amountMinor },
    });
    const outcome = { payment: updated, refundId: refund!.id, refundedMinor: amountMinor };
    await options.remember?.(tx, outcome);
    return outcome;
  });
}
