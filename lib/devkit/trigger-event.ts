import { randomInt } from "node:crypto";
import { EVENT_TYPES } from "../events/events.schema";
import type { GatewayApi } from "./gateway-api";

export type TriggerableEvent = (typeof EVENT_TYPES)[number];
export const TRIGGERABLE_EVENTS = EVENT_TYPES;

export function isTriggerableEvent(value: string): value is TriggerableEvent {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

interface Intent {
  paymentId: string;
}

/**
 * `trigger <event-type>`: drives a sandbox payment to the event over the public API only,
 * with the merchant's client credentials: a fresh customer with a sandbox wallet (10,000 of
 * the currency), a token for it, an intent, and the customer's own WALLET_V2 proceed (which
 * needs no OTP), then capture, release or refund as the event asks. `payment.failed` pays
 * more than the wallet holds. Returns the payment id; the event follows as for any payment.
 */
export async function triggerEvent(
  api: GatewayApi,
  options: { event: TriggerableEvent; service: string; country?: string; currency?: string },
): Promise<{ paymentId: string; statusCode: number }> {
  const country = options.country ?? "DZA";
  const currency = options.currency ?? "DZD";
  const phone = `+213${randomInt(500_000_000, 799_999_999)}`;
  const { data: customer } = await api.call<{ id: string }>("POST", "/api/v1/customers", {
    body: { name: "Trigger Customer", phone },
  });
  const { data: tokens } = await api.call<{ accessToken: string }>("POST", "/api/v1/customer-access-token", {
    body: { customerId: customer.id },
  });
  const reservation = ["payment.pre_authorized", "payment.captured", "payment.released"].includes(options.event);
  const amount = options.event === "payment.failed" ? 20_000 : 12.5;
  const { data: intent } = await api.call<Intent>("POST", `/api/v1/payments/intents?countryCode=${country}`, {
    body: {
      actionId: `trigger-${options.event}-${Date.now()}-${randomInt(1e6)}`,
      amount,
      actionCurrencyCode: currency,
      actionCountryCode: country,
      userId: phone,
      captureMethod: reservation ? "RESERVATION" : "DIRECT",
    },
  });
  const { data: proceeded } = await api.call<{ statusCode: number }>(
    "POST",
    `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    {
      body: { paymentMethodCode: "WALLET_V2" },
      headers: {
        authorization: "",
        "x-client-token": tokens.accessToken,
        "x-service": options.service,
        "x-platform": "API",
      },
    },
  );
  let statusCode = proceeded.statusCode;
  const expected = options.event === "payment.failed" ? 3 : reservation ? 13 : 2;
  if (statusCode !== expected) {
    throw new Error(
      `The payment ${intent.paymentId} ended with statusCode ${statusCode}, not ${expected}; ` +
        `no ${options.event} event follows.`,
    );
  }
  const serverHeaders = { "x-service": options.service, "x-platform": "API" };
  switch (options.event) {
    case "payment.captured":
      statusCode =
        (
          await api.call<{ statusCode?: number }>("POST", `/api/v1/payments/intents/${intent.paymentId}/capture`, {
            body: {},
            headers: serverHeaders,
          })
        ).data.statusCode ?? 2;
      break;
    case "payment.released":
      statusCode =
        (
          await api.call<{ statusCode?: number }>("POST", `/api/v1/payments/intents/${intent.paymentId}/release`, {
            body: {},
            headers: serverHeaders,
          })
        ).data.statusCode ?? 10;
      break;
    case "payment.refunded":
      statusCode =
        (
          await api.call<{ statusCode?: number }>("POST", `/api/v1/payments/${intent.paymentId}/refund`, {
            body: { description: "gateway trigger payment.refunded" },
            headers: serverHeaders,
          })
        ).data.statusCode ?? 4;
      break;
    case "payment.succeeded":
    case "payment.failed":
    case "payment.pre_authorized":
      break;
  }
  return { paymentId: intent.paymentId, statusCode };
}
