import type { Db } from "../db/client";
import { beginProviderOperation, operationId } from "../provider-operations";
import { applyTransition } from "./apply-transition";
import { cardOperationRequest } from "./card-operations";
import { RESERVATION_AUTO_RELEASE_MS } from "./payment-expiry";
import { STATUS_TEXT } from "./payment-messages";
import { operationProviderOf, releaseFunds } from "./payment-funds";
import type { PaymentRow } from "./payment-record";

/**
 * Contract section 4: a reservation left PRE_AUTHORIZED for 7 days (on the service's clock)
 * is over, whether or not the sweep has reached it yet. Capture and check ask this too, so a
 * late capture between the deadline and the next sweep cannot take money the customer is owed.
 */
export function isStaleReservation(payment: Pick<PaymentRow, "state" | "authorizedAt">, now: Date): boolean {
  return (
    payment.state === "PRE_AUTHORIZED" &&
    payment.authorizedAt !== null &&
    now.getTime() > payment.authorizedAt.getTime() + RESERVATION_AUTO_RELEASE_MS
  );
}

/**
 * Returns the hold and cancels the payment (10, notified), on a payment the caller has locked.
 * A provider-held reservation is canceled at the provider by a recorded operation that the
 * reconciliation job carries out after this transaction commits (never a call inside it).
 */
export async function releaseStaleReservation(tx: Db, options: { payment: PaymentRow; now: Date }): Promise<PaymentRow> {
  const provider = operationProviderOf(options.payment);
  if (provider) {
    const request = await cardOperationRequest(tx, options.payment);
    await beginProviderOperation(tx, { id: operationId(undefined), paymentId: options.payment.id, provider, kind: "cancel", request, deferred: true });
  } else {
    await releaseFunds(tx, options.payment);
  }
  return applyTransition(tx, {
    payment: options.payment,
    event: "release_stale",
    now: options.now,
    changes: { status: STATUS_TEXT.autoReleased },
  });
}
