import type { Db } from "../../db/client";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { ApiError } from "../../errors/api-error";
import { completeProviderOperation, type ProviderOperationRow } from "../../provider-operations";
import type { QrRequestBody } from "../../providers/wallet/wallet-protocol";
import { walletChargeHandlerOf } from "./wallet-charge-operations";
import { findQrCharge, qrAnswer } from "./wallet-qr-charge";

/**
 * Settles the payment's open QR charge: from the wallet's own report when one is given (its
 * callback, or its answer to the sandbox app), else by asking the wallet. Null without a QR
 * charge; a settled one is returned as it is, so a repeated report changes nothing.
 */
export async function settleQrCharge(
  db: Db,
  paymentId: string,
  reportedAnswer?: QrRequestBody,
): Promise<ProviderOperationRow | null> {
  const operation = await findQrCharge(db, paymentId);
  if (!operation) return null;
  return completeProviderOperation(
    db,
    operation,
    walletChargeHandlerOf(operation),
    reportedAnswer ? { reported: async () => qrAnswer(reportedAnswer) } : {},
  );
}

/**
 * After an expiry's transaction: a QR payment it could not expire (its charge is open: the
 * customer may have approved) is settled by asking the wallet, which withdraws the request
 * first. A wallet that does not answer leaves it to reconciliation. Returns the payment as it stands.
 */
export async function withdrawExpiredQrCharge(db: Db, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.transactionType !== "QR_CODE" || payment.state !== "PROCESSING") return payment;
  try {
    if (!(await settleQrCharge(db, payment.id))) return payment;
  } catch (error) {
    if (!(error instanceof ApiError && error.errorName === "provider_unavailable")) throw error;
  }
  return (await findPayment(db, payment.id)) ?? payment;
}
