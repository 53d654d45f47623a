import { capturePaymentBody, releasePaymentBody } from "../../payments/operations/capture-payment.schema";
import {
  createPaymentIntentBody,
  createPaymentIntentQuery,
} from "../../payments/operations/create-payment-intent.schema";
import {
  cardFinalizeBody,
  cardFinalizeView,
  toCardFinalizeView,
  type CardFinalizeOutcome,
} from "../../payment-methods/registry/method-entry-points";
import {
  captureResultView,
  checkResultView,
  paymentIntentView,
  proceedResultView,
  refundResultView,
  toCaptureResultView,
  toProceedResultView,
  toRefundResultView,
  toReleaseResultView,
} from "../../payments/operations/payment-views";
import {
  paymentCallHeaders,
  proceedPaymentBody,
  type ProceedOutcome,
} from "../../payment-methods/contract/proceed-contract";
import type { PaymentRow } from "../../db/payment-record";
import type { RefundOutcome } from "../../payments/operations/refund-payment";
import { refundPaymentBody } from "../../payments/operations/refund-payment.schema";
import { defineOperation } from "./operation";

const tag = "Payments";

export const createPaymentIntent = defineOperation({
  method: "POST",
  path: "/api/v1/payments/intents",
  operationId: "createPaymentIntent",
  tag,
  summary: "Create a payment intent",
  description:
    "Idempotent on (service, `actionId`): the same body again answers the same intent " +
    "(same paymentId and clientSecret, 201); a different body is 422 `idempotency_conflict`. " +
    "`countryCode` (query) and `actionCountryCode` are ISO 3166-1 **alpha-3**. " +
    "The body's free-form object is spelled `metaData`. The intent expires 30 minutes after creation.",
  auth: ["client"],
  body: createPaymentIntentBody,
  query: createPaymentIntentQuery,
  status: 201,
  response: paymentIntentView,
  errors: ["idempotency_conflict", "invalid_state"],
});

export const proceedPayment = defineOperation({
  method: "POST",
  path: "/api/v1/payments/intents/:id/proceed",
  operationId: "proceedPayment",
  tag,
  summary: "Proceed with a payment method",
  description:
    "`WALLET_V2` answers 12 with an OTP page in `metadata.payUrl` and `require3DS: true` " +
    "(append `returnUrl` to it); under user_auth by the intent's own customer no OTP is needed " +
    "(2, or 13 for RESERVATION). A `QR_CODE` intent answers `qrImageUrl` and no statusCode. " +
    "`CARD_PROVIDER` always answers 12 with the hosted card page (`redirectUrl` in the body says where the " +
    "buyer returns). A payment the provider rejects is 200 with statusCode 3, not an HTTP error. " +
    "`x-service` is required for client_auth and user_auth and ignored for merchant_auth; " +
    "`x-country-code` is deprecated and never selects the country.",
  auth: ["client", "merchant", "user"],
  requireServiceHeader: true,
  body: proceedPaymentBody,
  headers: paymentCallHeaders,
  idempotent: "payments.proceed",
  response: proceedResultView,
  answer: (outcome: ProceedOutcome) => ({ data: toProceedResultView(outcome), message: outcome.status }),
  errors: ["not_found", "invalid_state", "intent_expired", "provider_unavailable"],
});

export const checkPayment = defineOperation({
  method: "GET",
  path: "/api/v1/payments/intents/:id/check",
  operationId: "checkPayment",
  tag,
  summary: "Check a payment's status",
  description:
    "Confirm here (or by notification) what the buyer's redirect claims. Poll gently: back off on 429. " +
    "`x-service` is required for client_auth and user_auth and ignored for merchant_auth.",
  auth: ["client", "merchant", "user"],
  requireServiceHeader: true,
  headers: paymentCallHeaders,
  response: checkResultView,
  errors: ["not_found", "intent_expired"],
});

export const capturePayment = defineOperation({
  method: "POST",
  path: "/api/v1/payments/intents/:id/capture",
  operationId: "capturePayment",
  tag,
  summary: "Capture a reservation",
  description:
    "Only a `RESERVATION` intent in state 13. Without `amount` the whole reservation is captured; " +
    "a smaller amount releases the rest to the wallet at once; " +
    "above the reserved amount is 400 `amount_exceeds_reserved`. A second capture is 409 `invalid_state`.",
  auth: ["client"],
  body: capturePaymentBody,
  idempotent: "payments.capture",
  response: captureResultView,
  answer: (payment: PaymentRow) => ({ data: toCaptureResultView(payment), message: "Payment captured." }),
  errors: ["not_found", "invalid_state", "amount_exceeds_reserved", "provider_unavailable"],
});

export const releasePayment = defineOperation({
  method: "POST",
  path: "/api/v1/payments/intents/:id/release",
  operationId: "releasePayment",
  tag,
  summary: "Release a reservation",
  description:
    "Returns the whole reserved amount (statusCode 10, status `Reversed`). Body `{}`. " +
    "A reservation left alone 7 days is released automatically.",
  auth: ["client"],
  body: releasePaymentBody,
  idempotent: "payments.release",
  response: captureResultView,
  answer: (payment: PaymentRow) => ({ data: toReleaseResultView(payment), message: "Reservation released." }),
  errors: ["not_found", "invalid_state", "provider_unavailable"],
});

export const refundPayment = defineOperation({
  method: "POST",
  path: "/api/v1/payments/:paymentId/refund",
  operationId: "refundPayment",
  tag,
  summary: "Refund a payment, fully or in part",
  description:
    "Only a captured payment (statusCode 2, or 16 after an earlier partial refund). " +
    "**A refund without `amount` refunds the rest.** Above the remaining refundable amount is 400 " +
    "`amount_exceeds_refundable`. The result's statusCode is 4 for full and partial refunds alike, " +
    "while check then answers 4 (fully) or 16 (partially refunded).",
  auth: ["client"],
  body: refundPaymentBody,
  idempotent: "payments.refund",
  response: refundResultView,
  answer: (outcome: RefundOutcome) => ({ data: toRefundResultView(outcome), message: "Refund processed." }),
  errors: ["not_found", "invalid_state", "amount_exceeds_refundable", "provider_unavailable"],
});

export const finalizeCardPayment = defineOperation({
  method: "POST",
  path: "/api/v1/payments/intents/:id/card-provider-finalize",
  operationId: "finalizeCardPayment",
  tag: "Hosted checkout",
  summary: "Finalize a card payment (hosted card page)",
  description:
    "Called by the hosted card page after the card provider confirmed the card; " +
    "the provider's own notification does the same. The only credential is `x-client-secret`, " +
    "which must name the payment in the path (no Authorization). Idempotent on `paymentIntentId`.",
  auth: ["intent_secret"],
  body: cardFinalizeBody,
  idempotent: "payments.card_finalize",
  response: cardFinalizeView,
  answer: (outcome: CardFinalizeOutcome) => ({ data: toCardFinalizeView(outcome), message: "Card payment finalized." }),
  errors: ["not_found", "invalid_state", "intent_expired", "provider_unavailable"],
});
