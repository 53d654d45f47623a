import { z } from "zod";
import { listServiceNotificationsQuery, notificationView } from "../../notifications/list-service-notifications.schema";
import {
  answerQrPaymentBody,
  qrPaymentStatusView,
  qrStatusQuery,
} from "../../payment-methods/registry/method-entry-points";
import { checkResultView } from "../../payments/operations/payment-views";
import { advanceClockBody, serviceClockView } from "../../sandbox/advance-service-clock.schema";
import { defineOperation } from "./operation";

const sandbox = "Sandbox";

export const advanceSandboxClock = defineOperation({
  method: "POST",
  path: "/api/v1/sandbox/clock",
  operationId: "advanceSandboxClock",
  tag: sandbox,
  summary: "Move the service's sandbox clock forward, or reset it",
  description:
    '`{ "advanceSeconds": n }` moves it forward; `{ "reset": true }` brings it back to real time (as DELETE does). ' +
    "Expiry, OTP lifetime and the 7-day reservation release read this clock.",
  auth: ["client"],
  sandboxOnly: true,
  body: advanceClockBody,
  response: serviceClockView,
});

export const resetSandboxClock = defineOperation({
  method: "DELETE",
  path: "/api/v1/sandbox/clock",
  operationId: "resetSandboxClock",
  tag: sandbox,
  summary: "Reset the service's sandbox clock to real time",
  auth: ["client"],
  sandboxOnly: true,
  response: serviceClockView,
});

export const answerSandboxQrPayment = defineOperation({
  method: "POST",
  path: "/api/v1/sandbox/payments/:id/qr",
  operationId: "answerSandboxQrPayment",
  tag: sandbox,
  summary: "Approve or decline a QR payment as the customer's wallet app",
  description: "Sandbox only (404 in production). Answers the check result after the answer.",
  auth: ["client"],
  sandboxOnly: true,
  body: answerQrPaymentBody,
  response: checkResultView,
  errors: ["invalid_state", "intent_expired"],
});

export const listSandboxWebhooks = defineOperation({
  method: "GET",
  path: "/api/v1/sandbox/webhooks",
  operationId: "listSandboxWebhooks",
  tag: sandbox,
  summary: "Recent notifications and their delivery attempts",
  description: "Sandbox only (404 in production). Newest first.",
  auth: ["client"],
  sandboxOnly: true,
  query: listServiceNotificationsQuery,
  response: z.array(notificationView),
});

export const getQrImage = defineOperation({
  method: "GET",
  path: "/api/v1/qr/:id/image",
  operationId: "getQrImage",
  tag: "Hosted checkout",
  summary: "The QR code image (`metadata.qrImageUrl`)",
  description:
    "Reached through the URL the proceed result hands out; it carries the page token. A wrong or missing token is 404.",
  publicAccess: "page token in the URL",
  rawResponse: { contentType: "image/png", description: "The QR code as a PNG." },
  errors: ["not_found"],
});

export const getQrStatus = defineOperation({
  method: "GET",
  path: "/api/v1/qr/:id/status",
  operationId: "getQrStatus",
  tag: "Hosted checkout",
  summary: "What the hosted QR page polls",
  description: "Holder of the page token only; a wrong or missing token is 404. Merchants use check instead.",
  publicAccess: "page token in the query",
  query: qrStatusQuery,
  response: qrPaymentStatusView,
  errors: ["not_found"],
});

export const receiveCardProviderEvent = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/card-provider",
  operationId: "receiveCardProviderEvent",
  tag: "Card provider",
  summary: "The card provider's signed payment events",
  description:
    "For the card provider only: a payment-succeeded event runs the card-finalize handler. " +
    "A missing or wrong signature is 401.",
  publicAccess: "card provider signature",
  response: z.object({
    eventId: z.string(),
    handled: z.boolean().meta({ description: "False when the event concerns nothing the gateway can act on." }),
  }),
  errors: ["payload_too_large", "validation_error"],
});

export const receiveRedirectNotification = defineOperation({
  method: "POST",
  path: "/api/v1/redirect-notifications/:id",
  operationId: "receiveRedirectNotification",
  tag: "Card provider",
  summary: "A redirect provider's signed notification about a payment (Chargily Pay's webhook)",
  description:
    "For a REDIRECT method whose provider notifies (contract 15): " +
    "the gateway gives this address to the provider with the order. " +
    "The body is verified against the merchant's credentials " +
    "(Chargily: the `signature` header, HMAC-SHA256 of the raw body with the secret key); " +
    "a missing or wrong signature is 401 and changes nothing. " +
    "A notification sent twice, or after the buyer's return, settles nothing again.",
  publicAccess: "redirect provider signature",
  response: z.object({
    paymentId: z.string(),
    settled: z
      .boolean()
      .meta({ description: "True when the payment has taken the provider's outcome (now or before)." }),
  }),
  errors: ["payload_too_large", "not_found"],
});

export const getOpenApiDocument = defineOperation({
  method: "GET",
  path: "/api/v1/openapi.json",
  operationId: "getOpenApiDocument",
  tag: "API description",
  summary: "This OpenAPI 3.1 document",
  description: "No credential. The readable reference is at `/docs`.",
  publicAccess: "open to anyone",
  rawResponse: {
    contentType: "application/json",
    description: "The OpenAPI 3.1 document (not wrapped in the envelope).",
  },
});
