import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "../../db/client";
import { cardProviderAccounts, cardProviderCustomers, payments } from "../../db/schema";
import { ProviderRefusedError, ProviderUnavailableError } from "../../provider-operations/provider-operation";
import { findCardProviderAccount, type CardAccountRef, type CardProviderAccount } from "./card-provider-accounts";
import type {
  CardProvider,
  ProviderErrorCode,
  ProviderEvent,
  ProviderEventType,
  ProviderIntentStatus,
  ProviderPaymentIntent,
} from "./port";

/** Stripe.js, always loaded from Stripe itself (Stripe's rule: never bundled or self-hosted). */
export const STRIPE_JS_URL = "https://js.stripe.com/v3";

/** Where the SDK sends requests: Stripe itself, or the sandbox's simulator of its wire protocol. */
export interface StripeEndpoint {
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export interface StripeAdapterOptions {
  endpoint: StripeEndpoint;
  /** Each account's keys: the merchant's own (set with the CLI), or the sandbox's derived ones. */
  accountOf(db: Db, account: CardAccountRef): Promise<CardProviderAccount | null>;
  timeoutMs: number;
  /** Accounts to try for an event that names no payment of this gateway. */
  everyAccount?(db: Db): Promise<CardProviderAccount[]>;
  /** The SDK's transport: unset, HTTPS to `endpoint`; the sandbox's in-process simulator otherwise. */
  httpClient?: Stripe.HttpClient;
  /**
   * The sandbox only: what its local stand-in of Stripe.js needs to confirm from the browser
   * (the simulator's confirm endpoint and 3DS page). Unset, the page uses Stripe.js itself.
   */
  browserConfirmation?: CardProvider["browserConfirmation"];
}

/** Parses CARD_PROVIDER_API_URL (e.g. http://127.0.0.1:4110) into the SDK's host, port and protocol. */
export function stripeEndpointOf(url: string | undefined): StripeEndpoint {
  if (!url) return {};
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : undefined,
    protocol: parsed.protocol === "http:" ? "http" : "https",
  };
}

/**
 * The production card adapter on the official `stripe` SDK: payment intents (manual capture for
 * RESERVATION), partial capture, cancel, refunds with amounts, one Stripe customer per gateway
 * customer and account (saved cards via setup_future_usage, detached on delete), an idempotency
 * key on every POST, and inbound events verified by the SDK. The sandbox runs the same adapter
 * against its simulator (host, port and protocol only differ).
 */
export function stripeCardProvider(options: StripeAdapterOptions): CardProvider {
  const clients = new Map<string, Stripe>();
  const clientFor = (secretKey: string) => {
    let client = clients.get(secretKey);
    if (!client) {
      client = new Stripe(secretKey, {
        ...options.endpoint,
        ...(options.httpClient ? { httpClient: options.httpClient } : {}),
        timeout: options.timeoutMs,
        // The gateway retries through its own provider operations, with the same idempotency key.
        maxNetworkRetries: 0,
        telemetry: false,
        appInfo: { name: "payment-gateway" },
      });
      clients.set(secretKey, client);
    }
    return client;
  };
  async function stripeFor(db: Db, account: CardAccountRef) {
    const keys = (await options.accountOf(db, account)) ?? (await anyAccountOf(db, account.serviceId));
    if (!keys)
      throw new ProviderRefusedError(
        "account_not_configured",
        `No card provider keys for service ${account.serviceId} in ${account.country}.`,
      );
    return { stripe: clientFor(keys.secretKey), keys };
  }
  async function anyAccountOf(db: Db, serviceId: string) {
    const [row] = await db
      .select({ country: cardProviderAccounts.country })
      .from(cardProviderAccounts)
      .where(eq(cardProviderAccounts.serviceId, serviceId));
    return row ? options.accountOf(db, { serviceId, country: row.country }) : null;
  }

  return {
    async createPaymentIntent(db, request) {
      const { stripe } = await stripeFor(db, request.account);
      const customer = await customerOf(db, stripe, request.account, request.customerRef);
      const intent = await sdk(() =>
        stripe.paymentIntents.create(
          {
            amount: request.amountMinor,
            currency: request.currency.toLowerCase(),
            capture_method: request.captureMethod,
            customer,
            metadata: request.metadata,
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return toIntent(intent);
    },

    async retrievePaymentIntent(db, { id, account }) {
      const { stripe } = await stripeFor(db, account);
      try {
        return toIntent(await stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw unavailableUnlessRefused(error);
      }
    },

    async retrievePaymentMethod(db, { id, account }) {
      const { stripe } = await stripeFor(db, account);
      try {
        const method = await stripe.paymentMethods.retrieve(id);
        const card = method.card;
        if (!card) return null;
        return {
          id: method.id,
          brand: card.brand,
          last4: card.last4,
          expMonth: card.exp_month,
          expYear: card.exp_year,
          fingerprint: card.fingerprint ?? method.id,
          customerRef: typeof method.customer === "string" ? method.customer : (method.customer?.id ?? null),
          detached: method.customer === null,
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw unavailableUnlessRefused(error);
      }
    },

    async capturePaymentIntent(db, { id, amountMinor, idempotencyKey, account }) {
      const { stripe } = await stripeFor(db, account);
      const before = await sdk(() => stripe.paymentIntents.retrieve(id));
      const captured = await sdk(() =>
        stripe.paymentIntents.capture(id, { amount_to_capture: amountMinor }, { idempotencyKey }),
      );
      const capturable = before.status === "requires_capture" ? before.amount_capturable : captured.amount;
      return {
        capturedMinor: captured.amount_received,
        releasedMinor: Math.max(0, capturable - captured.amount_received),
      };
    },

    async cancelPaymentIntent(db, { id, idempotencyKey, account }) {
      const { stripe } = await stripeFor(db, account);
      const before = await sdk(() => stripe.paymentIntents.retrieve(id));
      await sdk(() => stripe.paymentIntents.cancel(id, {}, { idempotencyKey }));
      return { releasedMinor: before.amount_capturable };
    },

    async refundPaymentIntent(db, { id, amountMinor, idempotencyKey, account }) {
      const { stripe } = await stripeFor(db, account);
      const refund = await sdk(() =>
        stripe.refunds.create({ payment_intent: id, amount: amountMinor }, { idempotencyKey }),
      );
      return { refundId: refund.id };
    },

    async detachPaymentMethod(db, { id, idempotencyKey, account }) {
      const { stripe } = await stripeFor(db, account);
      await sdk(() => stripe.paymentMethods.detach(id, {}, { idempotencyKey }));
    },

    async browserConfirmation(db, request) {
      if (options.browserConfirmation) return options.browserConfirmation(db, request);
      const { intent, account } = request;
      const { stripe, keys } = await stripeFor(db, account);
      const full = await sdk(() => stripe.paymentIntents.retrieve(intent.id));
      return {
        stripeJsUrl: STRIPE_JS_URL,
        publishableKey: keys.publishableKey,
        clientSecret: full.client_secret ?? "",
        // Stripe.js confirms with Stripe itself; 3DS is handled by Stripe.js (requires_action).
        confirmUrl: "",
        nextActionUrl: full.next_action?.redirect_to_url?.url ?? null,
      };
    },

    async verifyEvent(db, { rawBody, headers }) {
      const signature = headers.get("stripe-signature");
      if (!signature) return null;
      const account = await accountOfEvent(db, rawBody);
      const keys = account ? await options.accountOf(db, account) : null;
      const candidates = account ? (keys ? [keys] : []) : ((await options.everyAccount?.(db)) ?? []);
      for (const candidate of candidates) {
        try {
          return toEvent(
            clientFor(candidate.secretKey).webhooks.constructEvent(rawBody, signature, candidate.webhookSecret),
          );
        } catch {
          // Not signed for this account: try the next one, if any.
        }
      }
      return null;
    },
  };
}

/** The account an inbound event claims to concern (its intent's metadata); the signature then proves it. */
async function accountOfEvent(db: Db, rawBody: string): Promise<CardAccountRef | null> {
  let paymentId: unknown;
  try {
    paymentId = (JSON.parse(rawBody) as { data?: { object?: { metadata?: Record<string, unknown> } } }).data?.object
      ?.metadata?.paymentId;
  } catch {
    return null;
  }
  if (typeof paymentId !== "string" || !/^[0-9a-f-]{36}$/i.test(paymentId)) return null;
  const [row] = await db
    .select({ serviceId: payments.serviceId, country: payments.country })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row ?? null;
}

const EVENT_TYPES: ProviderEventType[] = [
  "payment_intent.succeeded",
  "payment_intent.amount_capturable_updated",
  "payment_intent.payment_failed",
];

function toEvent(event: Stripe.Event): ProviderEvent | null {
  if (!EVENT_TYPES.includes(event.type as ProviderEventType)) return null;
  const intent = event.data.object as Stripe.PaymentIntent;
  return {
    id: event.id,
    type: event.type as ProviderEventType,
    paymentIntentId: intent.id,
    paymentMethodId:
      typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null),
    metadata: intent.metadata ?? {},
  };
}

/** One Stripe customer per gateway customer and account, created once (saved cards attach to it). */
async function customerOf(db: Db, stripe: Stripe, account: CardAccountRef, customerId: string): Promise<string> {
  const where = and(
    eq(cardProviderCustomers.serviceId, account.serviceId),
    eq(cardProviderCustomers.country, account.country),
    eq(cardProviderCustomers.customerId, customerId),
  );
  const [known] = await db.select().from(cardProviderCustomers).where(where);
  if (known) return known.providerCustomerId;
  const created = await sdk(() =>
    stripe.customers.create(
      { metadata: { gatewayCustomerId: customerId } },
      { idempotencyKey: `customer:${account.serviceId}:${account.country}:${customerId}` },
    ),
  );
  await db
    .insert(cardProviderCustomers)
    .values({ ...account, customerId, providerCustomerId: created.id })
    .onConflictDoNothing();
  const [kept] = await db.select().from(cardProviderCustomers).where(where);
  return kept!.providerCustomerId;
}

const STATUS: Record<string, ProviderIntentStatus> = {
  requires_payment_method: "requires_payment_method",
  requires_confirmation: "requires_payment_method",
  requires_action: "requires_action",
  processing: "requires_action",
  requires_capture: "requires_capture",
  succeeded: "succeeded",
  canceled: "canceled",
};

function errorCodeOf(intent: Stripe.PaymentIntent): ProviderErrorCode | null {
  const error = intent.last_payment_error;
  if (!error) return null;
  if (error.decline_code === "insufficient_funds" || error.code === "insufficient_funds") return "insufficient_funds";
  if (error.code === "payment_intent_authentication_failure") return "authentication_failed";
  return "card_declined";
}

function toIntent(intent: Stripe.PaymentIntent): ProviderPaymentIntent {
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  return {
    id: intent.id,
    status: STATUS[intent.status] ?? "requires_action",
    amountMinor: intent.amount,
    currency: intent.currency.toUpperCase(),
    captureMethod: intent.capture_method === "manual" ? "manual" : "automatic",
    amountCapturableMinor: intent.amount_capturable,
    amountReceivedMinor: intent.amount_received,
    amountRefundedMinor: charge?.amount_refunded ?? 0,
    paymentMethodId:
      typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null),
    setupFutureUsage: intent.setup_future_usage === "off_session" || intent.setup_future_usage === "on_session",
    customerRef: typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null),
    metadata: intent.metadata ?? {},
    lastErrorCode: errorCodeOf(intent),
  };
}

/**
 * Stripe's answers as the boundary reads them: a card or invalid-request error (4xx other than
 * 409/429) is a definitive refusal; a connection error, a time-out, a 5xx, 409 (idempotent
 * request still in flight) or 429 leaves the outcome unknown.
 */
async function sdk<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw unavailableUnlessRefused(error);
  }
}

function unavailableUnlessRefused(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeError) {
    const status = error.statusCode ?? 0;
    if (status >= 400 && status < 500 && status !== 409 && status !== 429) {
      return new ProviderRefusedError(error.code ?? error.type, error.message);
    }
    return new ProviderUnavailableError(`stripe ${error.type} ${status || ""}`.trim(), { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

export { findCardProviderAccount };
