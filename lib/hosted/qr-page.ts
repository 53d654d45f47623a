import { isProceededQrPayment } from "../payment-methods/registry/payment-method-registry";
import type { QrRequestStatus } from "../providers/wallet/port";
import type { PaymentState } from "../payments/core/payment-state";

/** What the hosted QR page shows, decided from the payment alone. */
export type QrPageMode = "show_code" | "expired" | "finished" | "unavailable";

export function qrPageMode(payment: {
  state: PaymentState;
  expired: boolean;
  transactionType: string | null;
  paymentMethodCode: string | null;
}): QrPageMode {
  // Only a QR intent proceeded with the wallet has a code to show.
  if (!isProceededQrPayment(payment)) return "unavailable";
  switch (payment.state) {
    case "PROCESSING":
      return payment.expired ? "expired" : "show_code";
    case "CREATED":
    case "REQUIRES_ACTION":
      return "unavailable";
    case "PRE_AUTHORIZED":
    case "SUCCEEDED":
    case "FAILED":
    case "CANCELED":
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      return "finished";
  }
}

/** What the sandbox wallet app shows: the question, or how it was answered. */
export type WalletAppMode = "awaiting" | "approved" | "declined" | "rejected" | "expired" | "closed";

export function walletAppMode(payment: {
  state: PaymentState;
  expired: boolean;
  qrStatus: QrRequestStatus;
}): WalletAppMode {
  switch (payment.qrStatus) {
    case "approved":
    case "declined":
    case "rejected":
      return payment.qrStatus;
    // Withdrawn by the gateway: only an expired payment's request is.
    case "canceled":
      return "expired";
    case "pending":
      switch (payment.state) {
        case "PROCESSING":
          return payment.expired ? "expired" : "awaiting";
        // An unanswered request whose payment failed: only the expiry fails it without an answer.
        case "FAILED":
          return "expired";
        case "CREATED":
        case "REQUIRES_ACTION":
        case "PRE_AUTHORIZED":
        case "SUCCEEDED":
        case "CANCELED":
        case "REFUNDED":
        case "PARTIALLY_REFUNDED":
          return "closed";
      }
  }
}
