import type { Db } from "../../db/client";
import { logger } from "../../log";
import { beginProviderOperation, completeProviderOperation, operationId, type ProviderName, type ProviderOperationHandler, type ProviderOperationRow } from "../../provider-operations";
import { cardCancel } from "./card-operations";
import { walletRelease } from "./wallet-operations";
import { applyTransition } from "./apply-transition";
import { RESERVATION_AUTO_RELEASE_MS } from "./payment-expiry";
import { STATUS_TEXT } from "./payment-messages";
import { operationProviderOf, operationRequest, releaseKindOf } from "./payment-funds";
import type { PaymentRow } from "../../db/payment-record";
import { SYSTEM_CAUSE } from "./state-change-cause";

/**
 * Contract section 4: a reservation left PRE_AUTHORIZED for 7 days (on the service's clock)
 * is over, whether or not the sweep has reached it yet. Capture and check ask this too, so a
 * late capture between the deadline and the next sweep cannot take money the customer is owed.
 */
export function isStaleReservation(payment: Pick<PaymentRow, "state" | "authorizedAt">, now: Date): boolean {
  return payment.state === "PRE_AUTHORIZED" && payment.authorizedAt !== null && now.getTime() > payment.authorizedAt.getTime() + RESERVATION_AUTO_RELEASE_MS;
}

/**
 * Cancels the payment (10, notified) on a payment the caller has locked, and records the
 * provider operation that returns the hold (card or wallet). The caller completes it after
 * its transaction commits (returnStaleFunds); if that fails, reconciliation does, with the
 * same operation id, so the funds go back exactly once.
 */
export async function releaseStaleReservation(tx: Db, options: { payment: PaymentRow; now: Date }): Promise<ProviderOperationRow> {
  const provider = operationProviderOf(options.payment);
  const request = await operationRequest(tx, options.payment);
  const operation = await beginProviderOperation(tx, {
    id: operationId(undefined),
    paymentId: options.payment.id,
    provider,
    kind: releaseKindOf(options.payment),
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

/** What returns a reservation's funds at each provider (the kinds releaseKindOf names). */
// A provider that never holds a reservation (the redirect methods take DIRECT only) has none.
const RELEASE_HANDLERS: { readonly [Provider in ProviderName]?: ProviderOperationHandler } = { card: cardCancel, wallet: walletRelease };

/** After the commit: asks the provider to return the holds now; what fails stays for reconciliation. */
export async function returnStaleFunds(db: Db, operations: ProviderOperationRow[]): Promise<void> {
  for (const operation of operations) {
    try {
      const handler = RELEASE_HANDLERS[operation.provider];
      if (!handler) throw new Error(`${operation.provider} holds no reservation to release`);
      await completeProviderOperation(db, operation, handler);
    } catch (error) {
      logger.warn({ err: error, operationId: operation.id }, "stale reservation release left for reconciliation");
    }
  }
}
