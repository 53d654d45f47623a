import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { beginProviderOperation, findProviderOperation, operationId, refusalError, runProviderOperation } from "../provider-operations";
import { applyTransition } from "./apply-transition";
import { cardOperationRequest } from "./card-operations";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { operationProviderOf, releaseFunds } from "./payment-funds";
import { findPayment, type PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";

/**
 * Releases a whole PRE_AUTHORIZED reservation: CANCELED (10). A provider-held reservation
 * (card) is canceled at the provider through the provider-operation boundary first.
 */
export async function releasePayment(
  db: Db,
  options: { principal: ClientPrincipal; paymentId: string; remember?: BeforeCommit<PaymentRow>; operationKey?: string },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  const id = operationId(options.operationKey);
  return runProviderOperation<PaymentRow>(db, {
    async begin(tx) {
      const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
      const retried = options.operationKey ? await findProviderOperation(tx, id, { paymentId: payment.id }) : null;
      if (retried) return { kind: "operation", operation: retried };
      assertTransition(payment.state, "release");
      const provider = operationProviderOf(payment);
      if (provider) {
        const request = { ...(await cardOperationRequest(tx, payment)), release: true };
        return { kind: "operation", operation: await beginProviderOperation(tx, { id, paymentId: payment.id, provider, kind: "cancel", request }) };
      }
      await releaseFunds(tx, payment);
      const released = await applyTransition(tx, { payment, event: "release", now, changes: { status: STATUS_TEXT.released } });
      await options.remember?.(tx, released);
      return { kind: "done", result: released };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      return (await findPayment(db, options.paymentId))!;
    },
  });
}
