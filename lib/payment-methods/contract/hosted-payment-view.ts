import type { PaymentState } from "../../payments/core/payment-state";

/**
 * What a hosted page may show about a payment (lib/payments/hosted/get-hosted-payment.ts reads
 * it with the page's token). A method's hosted step (its page read, e.g. the card page's) is
 * handed this view by the page that already read it, so the method never reaches up into the
 * hosted pages' layer.
 */
export interface HostedPaymentView {
  paymentId: string;
  serviceId: string;
  /** The countries the service serves (a method is offered only in one of them). */
  serviceCountries: string[];
  country: string;
  merchantName: string;
  /** Standard units, as the API renders them (TND keeps 3 decimals). */
  amount: number;
  amountMinor: number;
  currency: string;
  state: PaymentState;
  statusCode: number;
  /** Why a FAILED payment failed (FAILURE_REASON), so the page can say what check says. */
  failureReason: string | null;
  captureMethod: "DIRECT" | "RESERVATION";
  paymentMethodCode: string | null;
  transactionType: "QR_CODE" | null;
  otp: { attemptsLeft: number; resendAvailableAt: string; expiresAt: string } | null;
  /** The intent ran out of time: still open past expiresAt + 30 s grace, or already failed for it. */
  expired: boolean;
  serviceRedirectUrl: string | null;
  allowedOrigins: string[];
  redirectUrl: string | null;
  locale: string | null;
  /** The merchant's terms of payment (https), linked by the checkbox of a page that asks for it (SATIM's). */
  termsUrl: string | null;
}
