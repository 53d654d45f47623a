import type { Db } from "../db/client";
import { ApiError } from "../http/api-error";
import { walletProvider } from "../providers/wallet/wallet-provider";
import { cardFunds } from "./card-funds";
import type { PaymentRow } from "./payment-record";

/**
 * Money movements after the payment was processed, routed to the provider that holds the
 * funds.
 */
function providerOf(payment: PaymentRow) {
  switch (payment.paymentMethodCode) {
    case "WALLET_V2":
      return walletProvider();
    case "CARD_PROVIDER":
      return cardFunds;
    default:
      throw new ApiError("invalid_state", `${payment.paymentMethodCode ?? "This payment method"} cannot move funds here.`);
  }
}

const accountOf = (payment: PaymentRow) => ({
  serviceId: payment.serviceId,
  customerId: payment.customerId,
  currency: payment.currency,
});

export function captureFunds(tx: Db, payment: PaymentRow, amountMinor: number) {
  return providerOf(payment).captureHold(tx, { paymentId: payment.id, amountMinor });
}

export function releaseFunds(tx: Db, payment: PaymentRow) {
  return providerOf(payment).releaseHold(tx, { paymentId: payment.id });
}

export function refundFunds(tx: Db, payment: PaymentRow, amountMinor: number) {
  return providerOf(payment).credit(tx, { account: accountOf(payment), paymentId: payment.id, amountMinor });
}
