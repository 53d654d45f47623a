/**
 * Where a method's own steps leave its folder: the routes, pages, forms, API schemas and jobs
 * that serve one method by name (the card's page, its return, the provider's finalize, events
 * and reconciliation; the wallet's OTP page, QR page, image and status, wallet app and QR answer)
 * reach it here, beside the module table, so a method folder (lib/payment-methods/<method>/) is
 * imported by the registry alone (.dependency-cruiser.cjs "methods-through-the-registry"). Everything
 * else reaches a method through its PaymentMethodModule (payment-method-registry.ts).
 */

// CARD_PROVIDER: the hosted card page and its return, the provider's finalize and events, the reconciliation job.
export { readCardPage, type CardPageData } from "../card/hosted/get-card-page";
export { completeCardPayment } from "../card/hosted/complete-card-payment";
export { settledOrThrow } from "../card/card-finalize-result";
export { finalizeCardPayment } from "../card/finalize-card-payment";
export {
  cardFinalizeBody,
  cardFinalizeView,
  toCardFinalizeView,
  type CardFinalizeOutcome,
} from "../card/finalize-card-payment.schema";
export { receiveCardProviderEvent } from "../card/receive-card-provider-event";
export { cardPaymentReconciliationJob } from "../card/reconcile-card-payments";

// WALLET_V2: the OTP page's forms, the QR page, its image and status, the wallet app and its answer, the
// wallet's callbacks, the QR messages.
export { requestOtpResend } from "../wallet/hosted/resend-payment-otp";
export { attemptPaymentOtp } from "../wallet/hosted/submit-payment-otp";
export { readQrPage, type QrPageData } from "../wallet/hosted/get-qr-page";
export { renderQrImage } from "../wallet/hosted/render-qr-image";
export { getQrPaymentStatus } from "../wallet/hosted/get-qr-payment-status";
export { qrPaymentStatusView, qrStatusQuery } from "../wallet/hosted/get-qr-payment-status.schema";
export { getWalletAppPayment } from "../wallet/hosted/get-wallet-app-payment";
export { answerQrPayment, attemptQrAnswer } from "../wallet/answer-qr-payment";
export { answerQrPaymentBody, qrOutcome } from "../wallet/answer-qr-payment.schema";
export { handleQrCallback } from "../wallet/wallet-qr";
export { qrEndUserMessage } from "../wallet/qr-payment-messages";
export { walletCallOrApiError } from "../wallet/wallet-call-or-api-error";
