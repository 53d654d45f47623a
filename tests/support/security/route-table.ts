import { createHmac } from "node:crypto";
import type { z } from "zod";
import { listSavedCardsHeaders, listSavedCardsQuery, deleteSavedCardHeaders } from "@/lib/cards/saved-cards.schema";
import {
  generateCustomerTokenBody,
  refreshCustomerTokenBody,
  revokeCustomerTokenBody,
} from "@/lib/customers/customer-token.schema";
import { createCustomerBody, updateCustomerBody } from "@/lib/customers/customer.schema";
import { listServiceNotificationsQuery } from "@/lib/notifications/list-service-notifications.schema";
import {
  availableMethodsHeaders,
  availableMethodsQuery,
  cardProviderKeyHeaders,
  userMethodsHeaders,
  userMethodsQuery,
} from "@/lib/payment-methods/payment-methods.schema";
import { answerQrPaymentBody } from "@/lib/payment-methods/wallet/answer-qr-payment.schema";
import { capturePaymentBody, releasePaymentBody } from "@/lib/payments/operations/capture-payment.schema";
import {
  createPaymentIntentBody,
  createPaymentIntentQuery,
} from "@/lib/payments/operations/create-payment-intent.schema";
import { cardFinalizeBody } from "@/lib/payment-methods/card/finalize-card-payment.schema";
import { qrStatusQuery } from "@/lib/payment-methods/wallet/hosted/get-qr-payment-status.schema";
import { paymentCallHeaders, proceedPaymentBody } from "@/lib/payment-methods/contract/proceed-contract";
import { refundPaymentBody } from "@/lib/payments/operations/refund-payment.schema";
import { advanceClockBody } from "@/lib/sandbox/advance-service-clock.schema";
import { listEventsQuery } from "@/lib/events/events.schema";
import { createPaymentLinkBody, listPaymentLinksQuery } from "@/lib/payment-links/payment-link.schema";
import { CHARGILY_SANDBOX_SECRET_KEY } from "@/simulators/chargily/chargily-simulator";
import { clientAuth } from "../api";
import { createCustomerToken, randomPhone } from "../factories";
import { intentBody, proceed, serverHeaders } from "../payments";
import { newestEventOf } from "../real-events";
import type { Intent, World } from "./world";

/**
 * How a caller proves who it is: the three API modes of the interface, the card-finalize
 * secret, and the credential-less doors (a hosted page token, the card provider's
 * signature, nothing at all).
 */
export type Access = "client" | "merchant" | "user" | "intent_secret" | "page_token" | "provider_signature" | "public";

export interface RouteRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Headers of the request itself (x-platform, x-country-code, ...), never a credential. */
  headers?: Record<string, string>;
  /** The payment a merchant_auth or card-finalize credential must name here. */
  payment?: Intent;
  /** The provider's own signature of the raw body, for a provider other than the card provider. */
  signature?: (rawBody: string) => Record<string, string>;
}

export interface RouteSpec {
  /** Every way in this route accepts (interface "Authentication" rule 3). */
  accepts: readonly Access[];
  /** The zod schemas the route validates with, as the route imports them. */
  schemas?: { body?: z.ZodType; query?: z.ZodType; headers?: z.ZodType };
  /**
   * A request this route would serve for `world.owner`, aimed at fresh objects of the owner.
   * `withAccess: false` leaves out a page token or signature (credential-less routes only).
   */
  request(world: World, options?: { withAccess?: boolean }): Promise<RouteRequest>;
  /**
   * What the route answers without its page token or signature, whatever credential comes
   * along; absent for a route open to anyone (the API description).
   */
  refusal?: { status: number; name: string };
}

const platform = { "x-platform": "API" };
const perWorld = new WeakMap<World, Map<string, Promise<unknown>>>();

/** One value per world, made the first time a route asks for it. */
function once<T>(world: World, key: string, make: () => Promise<T>): Promise<T> {
  const cache = perWorld.get(world) ?? new Map<string, Promise<unknown>>();
  perWorld.set(world, cache);
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as Promise<T>;
}

const paymentRoute = (intent: Intent, extra: Omit<RouteRequest, "payment" | "params"> = {}): RouteRequest => ({
  params: { id: intent.paymentId },
  payment: intent,
  ...extra,
  headers: { ...platform, ...extra.headers },
});

/** The QR page's own calls: the payment's QR endpoints with its page token (or without it). */
async function qrPageRequest(world: World, options?: { withAccess?: boolean }): Promise<RouteRequest> {
  const qr = await once(world, "qr", () => world.qrPayment());
  const query: Record<string, string> = options?.withAccess === false ? {} : { token: qr.token };
  return { params: { id: qr.paymentId }, query };
}

/** An event of the owner's service (contract 12): the one its settled payment wrote. */
/** A payment link of the owner, made once per world. */
async function ownerLink(world: World): Promise<string> {
  return once(world, "link", async () => {
    const response = await world.api.post("/api/v1/payment-links", newLinkBody, clientAuth(world.owner));
    return response.body.data.id as string;
  });
}
const newLinkBody = { title: "Security suite link", amount: 10, currency: "DZD", countryCode: "DZA" };

async function ownerEvent(world: World): Promise<string> {
  return once(world, "event", async () => (await newestEventOf((await world.settled()).paymentId)).id);
}

/**
 * Every /api/v1 route and the access it accepts. The route-coverage test fails when a route
 * exists that this table does not list, so a new endpoint cannot skip the security suite.
 */
export const ROUTE_TABLE: Record<string, RouteSpec> = {
  "POST /api/v1/customers": {
    accepts: ["client"],
    schemas: { body: createCustomerBody },
    request: async () => ({ body: { name: "Nadia", phone: randomPhone() } }),
  },
  "GET /api/v1/customers/:id": {
    accepts: ["client"],
    request: async (world) => ({ params: { id: world.session.customer.id } }),
  },
  "PUT /api/v1/customers/:id": {
    accepts: ["client"],
    schemas: { body: updateCustomerBody },
    request: async (world) => ({
      params: { id: world.neighbour.customer.id },
      body: { name: world.neighbour.customer.name },
    }),
  },
  "GET /api/v1/customers/search/:phone": {
    accepts: ["client"],
    request: async (world) => ({ params: { phone: world.session.customer.phone } }),
  },
  "POST /api/v1/customer-access-token": {
    accepts: ["client"],
    schemas: { body: generateCustomerTokenBody },
    request: async (world) => ({ body: { customerId: world.neighbour.customer.id } }),
  },
  "POST /api/v1/customer-access-token/refresh": {
    accepts: ["client"],
    schemas: { body: refreshCustomerTokenBody },
    request: async (world) => {
      const pair = await createCustomerToken(world.owner, { phone: world.neighbour.customer.phone });
      return { body: { refreshToken: pair.refreshToken, accessToken: pair.accessToken } };
    },
  },
  "DELETE /api/v1/customer-access-token/revoke": {
    accepts: ["client"],
    schemas: { body: revokeCustomerTokenBody },
    request: async (world) => {
      const pair = await createCustomerToken(world.owner, { phone: world.neighbour.customer.phone });
      return { body: { accessToken: pair.accessToken } };
    },
  },
  "GET /api/v1/payment-methods/available": {
    accepts: ["client"],
    schemas: { query: availableMethodsQuery, headers: availableMethodsHeaders },
    request: async () => ({ query: { countryCode: "DZ" } }),
  },
  "GET /api/v1/payment-methods": {
    accepts: ["merchant", "user"],
    schemas: { query: userMethodsQuery, headers: userMethodsHeaders },
    request: async (world) => ({
      query: { amount: "10" },
      headers: { ...platform, "x-country-code": "DZA" },
      payment: await world.intent(),
    }),
  },
  "GET /api/v1/payment-methods/card-provider/pk": {
    accepts: ["client", "user", "merchant"],
    schemas: { headers: cardProviderKeyHeaders },
    request: async (world) => ({ headers: { ...platform, "x-country-code": "DZA" }, payment: await world.intent() }),
  },
  "GET /api/v1/cards": {
    accepts: ["user"],
    schemas: { query: listSavedCardsQuery, headers: listSavedCardsHeaders },
    request: async () => ({ query: { pmCode: "CARD_PROVIDER" }, headers: platform }),
  },
  "DELETE /api/v1/cards/:id": {
    accepts: ["user"],
    schemas: { headers: deleteSavedCardHeaders },
    request: async (world) => ({
      params: { id: await once(world, "card", () => world.savedCard()) },
      headers: { "x-country-code": "DZA" },
    }),
  },
  "POST /api/v1/payments/intents": {
    accepts: ["client"],
    schemas: { body: createPaymentIntentBody, query: createPaymentIntentQuery },
    request: async (world) => ({
      query: { countryCode: "DZA" },
      body: intentBody({ userId: world.session.customer.phone }),
    }),
  },
  "POST /api/v1/payments/intents/:id/proceed": {
    accepts: ["client", "merchant", "user"],
    schemas: { body: proceedPaymentBody, headers: paymentCallHeaders },
    request: async (world) => paymentRoute(await world.intent(), { body: { paymentMethodCode: "WALLET_V2" } }),
  },
  "GET /api/v1/payments/intents/:id/check": {
    accepts: ["client", "merchant", "user"],
    schemas: { headers: paymentCallHeaders },
    request: async (world) => paymentRoute(await world.intent()),
  },
  "POST /api/v1/payments/intents/:id/capture": {
    accepts: ["client"],
    schemas: { body: capturePaymentBody },
    request: async (world) => paymentRoute(await world.settled({ captureMethod: "RESERVATION" }), { body: {} }),
  },
  "POST /api/v1/payments/intents/:id/release": {
    accepts: ["client"],
    schemas: { body: releasePaymentBody },
    request: async (world) => paymentRoute(await world.settled({ captureMethod: "RESERVATION" }), { body: {} }),
  },
  "POST /api/v1/payments/:paymentId/refund": {
    accepts: ["client"],
    schemas: { body: refundPaymentBody },
    request: async (world) => {
      const payment = await world.settled();
      return { params: { paymentId: payment.paymentId }, payment, body: { description: "customer request" } };
    },
  },
  "POST /api/v1/payments/intents/:id/card-provider-finalize": {
    accepts: ["intent_secret"],
    schemas: { body: cardFinalizeBody },
    request: async (world) =>
      paymentRoute(await world.intent(), { body: { paymentIntentId: "pi_unknown", externalCardId: "pm_unknown" } }),
  },
  "GET /api/v1/qr/:id/image": {
    accepts: ["page_token"],
    refusal: { status: 404, name: "not_found" },
    request: qrPageRequest,
  },
  "GET /api/v1/qr/:id/status": {
    accepts: ["page_token"],
    schemas: { query: qrStatusQuery },
    refusal: { status: 404, name: "not_found" },
    request: qrPageRequest,
  },
  "POST /api/v1/sandbox/clock": {
    accepts: ["client"],
    schemas: { body: advanceClockBody },
    request: async () => ({ body: { advanceSeconds: 0 } }),
  },
  "DELETE /api/v1/sandbox/clock": {
    accepts: ["client"],
    request: async () => ({}),
  },
  "POST /api/v1/sandbox/payments/:id/qr": {
    accepts: ["client"],
    schemas: { body: answerQrPaymentBody },
    request: async (world) => {
      const qr = await world.qrPayment();
      return { params: { id: qr.paymentId }, body: { outcome: "decline" } };
    },
  },
  "GET /api/v1/events": {
    accepts: ["client"],
    schemas: { query: listEventsQuery },
    request: async () => ({ query: { limit: "5" } }),
  },
  "GET /api/v1/events/:id": {
    accepts: ["client"],
    request: async (world) => ({ params: { id: await ownerEvent(world) } }),
  },
  "POST /api/v1/events/:id/redeliver": {
    accepts: ["client"],
    request: async (world) => ({ params: { id: await ownerEvent(world) } }),
  },
  "POST /api/v1/payment-links": {
    accepts: ["client"],
    schemas: { body: createPaymentLinkBody },
    request: async () => ({ body: newLinkBody }),
  },
  "GET /api/v1/payment-links": {
    accepts: ["client"],
    schemas: { query: listPaymentLinksQuery },
    request: async () => ({ query: { limit: "5" } }),
  },
  "GET /api/v1/payment-links/:id": {
    accepts: ["client"],
    request: async (world) => ({ params: { id: await ownerLink(world) } }),
  },
  "POST /api/v1/payment-links/:id/deactivate": {
    accepts: ["client"],
    request: async (world) => ({ params: { id: await ownerLink(world) } }),
  },
  "GET /api/v1/sandbox/webhooks": {
    accepts: ["client"],
    schemas: { query: listServiceNotificationsQuery },
    request: async () => ({ query: { limit: "5" } }),
  },
  "POST /api/v1/webhooks/card-provider": {
    accepts: ["provider_signature"],
    refusal: { status: 401, name: "invalid_credentials" },
    request: async (world) => {
      const qr = await once(world, "qr", () => world.qrPayment());
      return {
        body: {
          id: "evt_security_suite",
          type: "payment_intent.succeeded",
          data: { object: { id: "pi_unknown", payment_method: "pm_unknown", metadata: { paymentId: qr.paymentId } } },
        },
      };
    },
  },
  // Chargily Pay's webhook about a payment of the owner's that took CHARGILY (no checkout yet: it settles nothing).
  "POST /api/v1/redirect-notifications/:id": {
    accepts: ["provider_signature"],
    refusal: { status: 401, name: "invalid_credentials" },
    request: async (world) => {
      const chargily = await once(world, "chargily", async () => {
        const created = await world.intent({ amount: 1500 });
        const response = await proceed(world.api, created.paymentId, serverHeaders(world.owner), {
          paymentMethodCode: "CHARGILY",
        });
        if (response.status !== 200)
          throw new Error(`Chargily proceed failed: ${response.status} ${JSON.stringify(response.body)}`);
        return created;
      });
      return {
        params: { id: chargily.paymentId },
        body: {
          id: "evt_security_suite",
          entity: "event",
          livemode: "false",
          type: "checkout.paid",
          data: { id: "01security0suite0checkout", entity: "checkout", amount: 1500, currency: "dzd", status: "paid" },
        },
        signature: (rawBody) => ({
          signature: createHmac("sha256", CHARGILY_SANDBOX_SECRET_KEY).update(rawBody).digest("hex"),
        }),
      };
    },
  },
  "GET /api/v1/openapi.json": {
    accepts: ["public"],
    request: async () => ({}),
  },
  ...Object.fromEntries(
    ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [
      `${method} /api/v1`,
      {
        accepts: ["public"],
        refusal: { status: 404, name: "not_found" },
        request: async () => ({}),
      } satisfies RouteSpec,
    ]),
  ),
  ...Object.fromEntries(
    ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [
      `${method} /api/v1/*`,
      {
        accepts: ["public"],
        refusal: { status: 404, name: "not_found" },
        request: async () => ({ params: { "*": "no/such/endpoint" } }),
      } satisfies RouteSpec,
    ]),
  ),
};

/** Does this request's path name the payment its credential is for? */
export function pathNamesPayment(request: RouteRequest): boolean {
  return request.payment !== undefined && Object.values(request.params ?? {}).includes(request.payment.paymentId);
}

/** The API modes (not the credential-less doors) a route accepts. */
export function apiModes(spec: RouteSpec): Access[] {
  return spec.accepts.filter((access) => ["client", "merchant", "user", "intent_secret"].includes(access));
}
