import type { ClientPrincipal } from "../../auth/principal";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import {
  beginProviderOperation,
  findRequestOperation,
  refusalError,
  runProviderOperation,
} from "../../provider-operations";
import { handlerOf } from "../../provider-operation-registry/provider-operation-handlers";
import type { WithinTransaction } from "../../provider-operations";
import { getPaymentOrThrow } from "../core/get-payment-or-throw";
import { fundsOrThrow } from "../core/method-funds";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { assertTransition } from "../core/payment-state";
import { causeRequestFields, type StateChangeCause } from "../core/state-change-cause";

/**
 * Releases a whole PRE_AUTHORIZED reservation: CANCELED (10) once the provider (card or
 * wallet) has returned the funds through the provider-operation boundary.
 */
export async function releasePayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    /** Who asks (the API, a console user): recorded with the operation, the cause of the change it settles. */
    cause: StateChangeCause;
    /** Written in the transaction that records the operation (the console's audit entry); not on a retry. */
    withinTransaction?: WithinTransaction;
    operationKey?: string;
  },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  return runProviderOperation<PaymentRow>(db, {
    handlerOf,
    async begin(tx) {
      const payment = await getPaymentOrThrow(tx, {
        principal: options.principal,
        paymentId: options.paymentId,
        lock: true,
      });
      const { operation: retried, id } = await findRequestOperation(tx, {
        operationKey: options.operationKey,
        paymentId: payment.id,
        now,
      });
      if (retried) return { kind: "operation", operation: retried };
      assertTransition(payment.state, "release");
      const { provider, releaseKind: kind, ...funds } = fundsOrThrow(methodFunds, payment);
      const request = { ...(await funds.request(tx, payment)), ...causeRequestFields(options.cause), release: true };
      return {
        kind: "operation",
        operation: await beginProviderOperation(tx, {
          id,
          now,
          paymentId: payment.id,
          provider,
          kind,
          request,
          withinTransaction: options.withinTransaction,
        }),
      };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      return (await findPayment(db, options.paymentId))!;
    },
  });
}
