import type { Db } from "../../db/client";
import { applyTransition } from "./apply-transition";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import type { MethodFunds } from "./method-funds";
import { SYSTEM_CAUSE } from "./state-change-cause";

/**
 * Contract section 4: an open intent past its grace fails (3) with a message saying it
 * expired, and the merchant is notified. No wallet money moves: an open intent holds none.
 * A wallet charge already sent and not settled (its answer was lost) is settled first, by
 * reconciliation: until then the payment stays as it is, so money the wallet took is never
 * left on a failed payment (a QR request is withdrawn at the wallet first, MethodExpiry.afterCommit).
 * What the method's provider still holds open is closed with it (MethodExpiry.closeUnfinished:
 * a card payment's provider intent is canceled, a redirect reservation's order reversed).
 */
export async function expirePayment(
  tx: Db,
  options: {
    payment: PaymentRow;
    now: Date;
    /** The funds of the payment's method (MethodFundsLookup.of); null for a payment no method has proceeded. */
    funds: MethodFunds | null;
    /** False for a caller that gives back itself what the provider took (card finalize). */
    closeUnfinished?: boolean;
  },
): Promise<PaymentRow> {
  const expiry = options.funds?.expiry;
  if (expiry && (await expiry.chargeOpen(tx, options.payment))) return options.payment;
  const expired = await failAsExpired(tx, options);
  if (expiry && options.closeUnfinished !== false) await expiry.closeUnfinished(tx, expired);
  return expired;
}

/** The expiry itself, for a caller that knows no charge is open (a QR request the wallet withdrew). */
export function failAsExpired(tx: Db, options: { payment: PaymentRow; now: Date }): Promise<PaymentRow> {
  return applyTransition(tx, {
    payment: options.payment,
    event: "expire",
    // The rule of time made it, whichever request or sweep noticed first: the timeline says so.
    cause: SYSTEM_CAUSE,
    now: options.now,
    changes: { failureReason: FAILURE_REASON.expired, status: STATUS_TEXT.expired },
  });
}
