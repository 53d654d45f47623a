import type { Db } from "../db/client";
import { applyTransition } from "./apply-transition";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import type { PaymentRow } from "./payment-record";

/**
 * Contract section 4: an open intent past its grace fails (3) with a message saying it
 * expired, and the merchant is notified. No wallet money moves: an open intent holds none.
 */
export function expirePayment(tx: Db, options: { payment: PaymentRow; now: Date }): Promise<PaymentRow> {
  return applyTransition(tx, {
    payment: options.payment,
    event: "expire",
    now: options.now,
    changes: { failureReason: FAILURE_REASON.expired, status: STATUS_TEXT.expired },
  });
}
