import type { PaymentState } from "./payment-state";

/** Provider descriptions (`status` of proceed, check and webhooks), one place for the wording. */
export const STATUS_TEXT = {
  created: "Payment created",
  otpRequired: "OTP verification required",
  walletCharging: "Charging the wallet",
  succeeded: "Payment succeeded",
  reserved: "Funds reserved",
  insufficientFunds: "Insufficient wallet balance",
  walletRefused: "Refused by the wallet",
  expired: "Payment expired before it was completed",
  tooManyCodes: "Too many wrong verification codes",
  captured: "Captured",
  released: "Reversed",
  autoReleased: "Reversed: reservation released after 7 days",
  refunded: "Refunded",
  partiallyRefunded: "Partially refunded",
  cardRequired: "Card details and verification required",
  cardAuthorized: "Amount authorized on the card",
  cardDeclined: "Card declined",
  cardInsufficientFunds: "Insufficient funds on the card",
  cardAuthenticationFailed: "Card authentication (3DS) failed",
  qrAwaiting: "Awaiting confirmation in the wallet app",
  qrDeclined: "Declined by the customer in the wallet app",
  redirectRequired: "Awaiting payment on the provider's page",
  redirectDeclined: "Declined by the card provider",
  redirectCanceled: "Canceled on the card provider's page",
} as const;

/** Failure reasons stored with a FAILED payment. */
export const FAILURE_REASON = {
  insufficientFunds: "insufficient_funds",
  walletRefused: "wallet_refused",
  expired: "expired",
  tooManyCodes: "otp_attempts_exhausted",
  cardDeclined: "card_declined",
  cardInsufficientFunds: "card_insufficient_funds",
  cardAuthenticationFailed: "card_authentication_failed",
  qrDeclined: "qr_declined",
  providerDeclined: "provider_declined",
} as const;

/**
 * What the buyer is told in the two states whose wording depends on the method: each method's module says it
 * (PaymentMethodModule.endUserMessages).
 */
export interface MethodEndUserMessages {
  requiresAction: string;
  preAuthorized: string;
}

/**
 * Check's `endUserMessage`: what the buyer may be shown; `method`: the words of the payment's method
 * (lib/payments/operations asks the registry).
 */
export function endUserMessage(
  state: PaymentState,
  failureReason: string | null,
  method: MethodEndUserMessages,
): string {
  switch (state) {
    case "CREATED":
    case "PROCESSING":
      return "Your payment is being processed.";
    case "REQUIRES_ACTION":
      return method.requiresAction;
    case "PRE_AUTHORIZED":
      return method.preAuthorized;
    case "SUCCEEDED":
      return "Your payment was successful.";
    case "FAILED":
      switch (failureReason) {
        case FAILURE_REASON.insufficientFunds:
          return "Your wallet balance is insufficient for this payment.";
        case FAILURE_REASON.expired:
          return "The payment expired before it was completed.";
        case FAILURE_REASON.tooManyCodes:
          return "Too many wrong codes were entered; the payment was declined.";
        case FAILURE_REASON.cardDeclined:
          return "Your card was declined.";
        case FAILURE_REASON.cardInsufficientFunds:
          return "Your card has insufficient funds for this payment.";
        case FAILURE_REASON.cardAuthenticationFailed:
          return "The card verification failed; the payment was declined.";
        default:
          return "Your payment was declined.";
      }
    case "CANCELED":
      return "The reservation was released; you were not charged.";
    case "REFUNDED":
      return "Your payment was refunded.";
    case "PARTIALLY_REFUNDED":
      return "Part of your payment was refunded.";
  }
}
