import type { Db } from "../../db/client";
import type { payments } from "../../db/schema";
import { applyTransition } from "../../payments/core/apply-transition";
import { FAILURE_REASON, STATUS_TEXT } from "../../payments/core/payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import type { StateChangeCause } from "../../payments/core/state-change-cause";

type ExtraChanges = Partial<Pick<typeof payments.$inferInsert, "paymentMethodCode" | "platform" | "locale">>;

/*
 * Every wallet charge (OTP, the owner in person, a QR approval) goes through the wallet
 * service as a provider operation (wallet-charge.ts, wallet-qr-charge.ts); what stays here is
 * the rejection they share.
 */

/** A wallet that cannot cover the amount rejects the payment (contract section 9). */
export function failForInsufficientFunds(
  tx: Db,
  options: { payment: PaymentRow; now: Date; cause: StateChangeCause; changes?: ExtraChanges },
): Promise<PaymentRow> {
  return applyTransition(tx, {
    payment: options.payment,
    event: "fail",
    cause: options.cause,
    now: options.now,
    changes: {
      ...options.changes,
      failureReason: FAILURE_REASON.insufficientFunds,
      status: STATUS_TEXT.insufficientFunds,
    },
  });
}
