import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { applyTransition } from "./apply-transition";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { releaseFunds } from "./payment-funds";
import type { PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";

/** Releases a whole PRE_AUTHORIZED reservation back to the wallet: CANCELED (10). */
export async function releasePayment(
  db: Db,
  options: { principal: ClientPrincipal; paymentId: string; remember?: BeforeCommit<PaymentRow> },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  return db.transaction(async (tx) => {
    const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
    assertTransition(payment.state, "release");
    await releaseFunds(tx, payment);
    const released = await applyTransition(tx, { payment, event: "release", now, changes: { status: STATUS_TEXT.released } });
    await options.remember?.(tx, released);
    return released;
  });
}
