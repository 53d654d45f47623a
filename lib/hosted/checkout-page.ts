import type { PaymentState } from "../payments/core/payment-state";

/**
 * What the hosted checkout shows, decided from the payment alone: the method choice for a
 * created intent (a QR intent has no choice: it starts at once), the step already under way,
 * or why there is nothing left to choose (contract 14: an expired or finished intent says so).
 */
export type CheckoutPageMode = "choose" | "start_qr" | "continue" | "expired" | "finished";

export function checkoutPageMode(payment: {
  state: PaymentState;
  expired: boolean;
  transactionType: string | null;
}): CheckoutPageMode {
  if (payment.expired) return "expired";
  switch (payment.state) {
    case "CREATED":
      return payment.transactionType === "QR_CODE" ? "start_qr" : "choose";
    case "PROCESSING":
    case "REQUIRES_ACTION":
      return "continue";
    case "PRE_AUTHORIZED":
    case "SUCCEEDED":
    case "FAILED":
    case "CANCELED":
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      return "finished";
  }
}
