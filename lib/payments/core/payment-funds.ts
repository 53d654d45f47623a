import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import type { ProviderName } from "../../provider-operations";
import { cardOperationRequest } from "./card-operations";
import type { PaymentRow } from "../../db/payment-record";
import { walletOperationRequest } from "./wallet-operations";

/*
 * Where a processed payment's money moves: every provider goes through the provider-operation
 * boundary (lib/provider-operations: recorded, called outside the transaction, settled after).
 */

export function operationProviderOf(payment: PaymentRow): ProviderName {
  switch (payment.paymentMethodCode) {
    case "CARD_PROVIDER":
      return "card";
    case "WALLET_V2":
      return "wallet";
    default:
      throw new ApiError("invalid_state", `${payment.paymentMethodCode ?? "This payment method"} cannot move funds here.`);
  }
}

/** The kind under which each provider returns a reservation's funds. */
export const releaseKindOf = (provider: ProviderName) => (provider === "card" ? "cancel" : "release");

/** What every operation on the payment sends its provider. Read inside the recording transaction. */
export async function operationRequest(tx: Db, payment: PaymentRow): Promise<Record<string, unknown>> {
  return operationProviderOf(payment) === "card" ? cardOperationRequest(tx, payment) : walletOperationRequest(payment);
}
