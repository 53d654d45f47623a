import { ApiError, RetryableRefusalError } from "../../errors/api-error";
import { providerUnavailable } from "../../provider-operations";
import type { ProviderErrorCode } from "../../providers/card/port";
import { intentExpired } from "../../payments/core/payment-expiry";
import type { PaymentState } from "../../payments/core/payment-state";
import type { CardFinalizeOutcome } from "./finalize-card-payment.schema";

/**
 * What a card finalize found. Each caller branches on it (the merchant's finalize answers an
 * error, the hosted page shows the payment's state, the provider's event is acknowledged, the
 * reconciliation asks again later), so it is returned, not thrown.
 */
export type CardFinalizeResult =
  /** The payment took the card, now or on an earlier finalize. */
  | { kind: "settled"; outcome: CardFinalizeOutcome }
  /** The provider has nothing to settle yet: the buyer has not confirmed, or not passed 3DS. */
  | { kind: "awaiting_buyer"; step: "confirmation" | "3ds" }
  /** The provider refused the card; the payment failed with it (or had already). */
  | { kind: "declined"; reason: ProviderErrorCode }
  /** The provider canceled the intent without a refusal of the card. */
  | { kind: "canceled_at_provider" }
  /** The provider took the money after the payment's grace: it expired and the charge is reversed. */
  | { kind: "expired" }
  /** The provider took the money for a payment that cannot accept it any more: the charge is reversed. */
  | { kind: "reversed"; state: PaymentState }
  /** No such provider intent for this payment (unknown payment, or another payment's intent). */
  | { kind: "unknown_intent" }
  /** The caller named a card that is not the one the provider confirmed. */
  | { kind: "wrong_card" }
  /** The provider could not be read; nothing changed, a later finalize asks again. */
  | { kind: "provider_unavailable" };

/** The merchant's finalize (interface "Payment intents" 3): a settled payment or the error its result stands for. */
export function settledOrThrow(result: CardFinalizeResult): CardFinalizeOutcome {
  switch (result.kind) {
    case "settled":
      return result.outcome;
    case "awaiting_buyer":
      throw new RetryableRefusalError(
        "invalid_state",
        result.step === "3ds"
          ? "The card payment still awaits the buyer's 3DS verification."
          : "The card payment has not been confirmed with the provider yet.",
      );
    case "declined":
      throw new ApiError("invalid_state", `The card payment was refused by the provider (${result.reason}).`);
    case "canceled_at_provider":
      throw new ApiError("invalid_state", "The provider canceled this card payment.");
    case "expired":
      throw intentExpired();
    case "reversed":
      throw new ApiError(
        "invalid_state",
        `The payment can no longer complete (it is ${result.state}); the card charge was reversed.`,
      );
    case "unknown_intent":
      throw new ApiError("not_found", "No such provider payment intent for this payment.");
    case "wrong_card":
      throw new ApiError("invalid_state", "externalCardId is not the card the provider confirmed for this payment.");
    case "provider_unavailable":
      throw providerUnavailable();
  }
}
