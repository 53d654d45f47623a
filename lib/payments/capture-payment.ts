import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { paymentCaptures } from "../db/schema";
import { ApiError } from "../http/api-error";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { formatMinorUnits } from "../money/amount";
import { minorUnitsOrThrow } from "../money/amount.schema";
import { applyTransition } from "./apply-transition";
import type { CapturePaymentBody } from "./capture-payment.schema";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { captureFunds } from "./payment-funds";
import type { PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";
import { isStaleReservation, releaseStaleReservation } from "./release-stale-reservation";

/**
 * Captures a PRE_AUTHORIZED reservation in full or in part; the rest of the hold goes back to
 * the wallet in the same transaction. Not bound by the 30 minutes (contract section 4).
 */
export async function capturePayment(
  db: Db,
  options: { principal: ClientPrincipal; paymentId: string; input: CapturePaymentBody; remember?: BeforeCommit<PaymentRow> },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  const outcome = await db.transaction(async (tx) => {
    const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
    if (isStaleReservation(payment, now)) {
      // Committed although the call is refused: the 7 days are over either way (contract 4).
      await releaseStaleReservation(tx, { payment, now });
      return { stale: true as const };
    }
    assertTransition(payment.state, "capture");
    const reserved = payment.amountMinor;
    const amountMinor = options.input.amount === undefined ? reserved : minorUnitsOrThrow(options.input.amount, payment.currency);
    if (amountMinor > reserved) {
      throw new ApiError(
        "amount_exceeds_reserved",
        `The capture amount is above the reserved ${formatMinorUnits(reserved, payment.currency)} ${payment.currency}.`,
      );
    }
    const { releasedMinor } = await captureFunds(tx, payment, amountMinor);
    await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor, releasedMinor });
    const captured = await applyTransition(tx, {
      payment,
      event: "capture",
      now,
      changes: { capturedMinor: payment.capturedMinor + amountMinor, status: STATUS_TEXT.captured },
      notification: { capturedMinor: amountMinor },
    });
    await options.remember?.(tx, captured);
    return { stale: false as const, captured };
  });
  if (outcome.stale) {
    throw new ApiError("invalid_state", "The reservation was left alone 7 days and has been released; nothing can be captured.");
  }
  return outcome.captured;
}
