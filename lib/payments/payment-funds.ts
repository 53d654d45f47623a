import type { Db } from "../db/client";
import { ApiError } from "../http/api-error";
import type { ProviderName } from "../provider-operations";
import { walletProvider } from "../providers/wallet/wallet-provider";
import type { PaymentRow } from "./payment-record";

/**
 * Where a processed payment's money moves. A payment whose provider goes through the
 * provider-operation boundary (lib/provider-operations: recorded, called outside the
 * transaction, settled after) answers its provider name; the wallet still moves its funds
 * inside the payment's transaction (its port takes the transaction) until it moves to the
 * boundary too.
 */
export function operationProviderOf(payment: PaymentRow): ProviderName | null {
  switch (payment.paymentMethodCode) {
    case "CARD_PROVIDER":
      return "card";
    case "WALLET_V2":
      return null;
    default:
      throw new ApiError("invalid_state", `${payment.paymentMethodCode ?? "This payment method"} cannot move funds here.`);
  }
}

function inTransactionProvider(payment: PaymentRow) {
  if (operationProviderOf(payment) !== null) throw new Error(`${payment.paymentMethodCode} moves funds through provider operations`);
  return walletProvider();
}

const accountOf = (payment: PaymentRow) => ({
  serviceId: payment.serviceId,
  customerId: payment.customerId,
  currency: payment.currency,
});

export function captureFunds(tx: Db, payment: PaymentRow, amountMinor: number) {
  return inTransactionProvider(payment).captureHold(tx, { paymentId: payment.id, amountMinor });
}

export function releaseFunds(tx: Db, payment: PaymentRow) {
  return inTransactionProvider(payment).releaseHold(tx, { paymentId: payment.id });
}

export function refundFunds(tx: Db, payment: PaymentRow, amountMinor: number) {
  return inTransactionProvider(payment).credit(tx, { account: accountOf(payment), paymentId: payment.id, amountMinor });
}
