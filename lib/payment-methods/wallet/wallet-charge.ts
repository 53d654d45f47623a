import type { Db } from "../../db/client";
import {
  beginProviderOperation,
  completeProviderOperation,
  findProviderOperation,
  operationInProgress,
  type ProviderOperationRow,
} from "../../provider-operations";
import { walletAccountOf } from "../../wallet-connection/wallet-connection";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { walletChargeOperationId } from "./wallet-charge-record";
import { causeRequestFields, type StateChangeCause } from "../../payments/core/state-change-cause";
import { walletChargeHandlerOf, type ChargeChanges } from "./wallet-charge-operations";

/*
 * Taking a wallet payment's money once nothing else stands in the way (OTP verified, or the
 * owner proceeding in person): a provider operation (lib/provider-operations) of kind "debit"
 * (DIRECT: SUCCEEDED, 2) or "hold" (RESERVATION: PRE_AUTHORIZED, 13), recorded under the
 * payment's lock, sent to the wallet outside any transaction, settled after. The operation id
 * is derived from the payment, so a repeated verify or a retried proceed finds the same charge
 * and the wallet applies it once. A wallet that refuses the charge (it cannot cover the amount,
 * or will not pay from this account) fails the payment (3).
 */

/**
 * Records the charge on the locked payment. A charge recorded before is taken up again when
 * its outcome is unknown (the wallet did not answer: asking again with the same id is safe);
 * one a live request is still sending answers 409 request_in_progress, so parallel submits
 * of one code charge once and only one of them answers the outcome.
 */
export async function beginWalletCharge(
  tx: Db,
  options: {
    payment: PaymentRow;
    /** Who makes the charge (the buyer's OTP, the owner through the API): the cause of the change it settles. */
    cause: StateChangeCause;
    changes?: ChargeChanges;
    /** The Idempotency-Key scope of the request that makes the charge (IdempotencyScope.operationKey). */
    requestKey?: string;
  },
): Promise<ProviderOperationRow> {
  const { payment } = options;
  const id = walletChargeOperationId(payment.id);
  const recorded = await findWalletCharge(tx, payment.id);
  if (recorded?.status === "pending") throw operationInProgress();
  if (recorded) return recorded;
  return beginProviderOperation(tx, {
    id,
    paymentId: payment.id,
    provider: "wallet",
    kind: payment.captureMethod === "DIRECT" ? "debit" : "hold",
    amountMinor: payment.amountMinor,
    request: {
      account: walletAccountOf(payment),
      currency: payment.currency,
      changes: options.changes ?? {},
      ...causeRequestFields(options.cause),
      ...(options.requestKey !== undefined ? { requestKey: options.requestKey } : {}),
    },
  });
}

/** The payment's wallet charge as recorded, whatever its status; null before one was made. */
export function findWalletCharge(tx: Db, paymentId: string): Promise<ProviderOperationRow | null> {
  return findProviderOperation(tx, walletChargeOperationId(paymentId), { paymentId });
}

/** Calls the wallet for a recorded charge and answers the payment as it then stands. */
export async function completeWalletCharge(db: Db, operation: ProviderOperationRow): Promise<PaymentRow> {
  await completeProviderOperation(db, operation, walletChargeHandlerOf(operation));
  return (await findPayment(db, operation.paymentId!))!;
}
