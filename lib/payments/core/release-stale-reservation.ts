import type { Db } from "../../db/client";
import { logger } from "../../log";
import {
  beginProviderOperation,
  completeProviderOperation,
  operationId,
  type ProviderOperationRow,
} from "../../provider-operations";
import { applyTransition } from "./apply-transition";
import { RESERVATION_AUTO_RELEASE_MS } from "./payment-expiry";
import { STATUS_TEXT } from "./payment-messages";
import { fundsOrThrow, type MethodFundsLookup } from "./method-funds";
import type { PaymentRow } from "../../db/payment-record";
import { SYSTEM_CAUSE } from "./state-change-cause";

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
 * Cancels the payment (10, notified) on a payment the caller has locked, and records the
 * provider operation that returns the hold at the provider of its method (`methods`). The caller
 * completes it after its transaction commits (returnStaleFunds); if that fails, reconciliation
 * does, with the same operation id, so the funds go back exactly once.
 */
export async function releaseStaleReservation(
  tx: Db,
  options: { payment: PaymentRow; now: Date; methods: MethodFundsLookup },
): Promise<ProviderOperationRow> {
  const funds = fundsOrThrow(options.methods, options.payment);
  const request = await funds.request(tx, options.payment);
  const operation = await beginProviderOperation(tx, {
    id: operationId(undefined),
    paymentId: options.payment.id,
    provider: funds.provider,
    kind: funds.releaseKind,
    request,
    deferred: true,
  });
  await applyTransition(tx, {
    payment: options.payment,
    event: "release_stale",
    // The 7 days made it, whether the sweep or a capture or check noticed first.
    cause: SYSTEM_CAUSE,
    now: options.now,
    changes: { status: STATUS_TEXT.autoReleased },
  });
  return operation;
}

/** After the commit: asks the provider to return the holds now; what fails stays for reconciliation. */
export async function returnStaleFunds(
  db: Db,
  operations: ProviderOperationRow[],
  methods: MethodFundsLookup,
): Promise<void> {
  for (const operation of operations) {
    try {
      await completeProviderOperation(db, operation, methods.releaseHandlerOf(operation));
    } catch (error) {
      logger.warn({ err: error, operationId: operation.id }, "stale reservation release left for reconciliation");
    }
  }
}
