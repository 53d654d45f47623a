import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { checkCardNumber, checkCvc, isExpiryPast } from "../../cards/card-number";
import { getConfig } from "../../config";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import {
  cardProviderEvents,
  cardProviderIdempotencyKeys,
  cardProviderPaymentIntents,
  cardProviderPaymentMethods,
  cardProviderRefunds,
} from "../../db/schema";
import type {
  CardProvider,
  ProviderErrorCode,
  ProviderEventType,
  ProviderPaymentIntent,
  ProviderPaymentMethod,
} from "./port";
import { deliverEventsSoon } from "./sandbox-event-delivery";
import {
  cardFingerprint,
  intentClientSecret,
  isGenuineSignature,
  isIntentClientSecret,
  providerId,
  SIGNATURE_HEADER,
} from "./sandbox-secrets";
import { sandboxBehaviorOf, type SandboxCardBehavior } from "./sandbox-test-cards";

type IntentRow = typeof cardProviderPaymentIntents.$inferSelect;
type MethodRow = typeof cardProviderPaymentMethods.$inferSelect;

/** The sandbox provider's browser API, mounted under this path of the gateway's host. */
export const SANDBOX_PROVIDER_API = "/api/card-provider-sandbox/v1";

/** A refusal of the provider's API, shaped like Stripe's `{ error: { type, code, message } }`. */
export class CardProviderError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly declineCode?: string,
  ) {
    super(message);
    this.name = "CardProviderError";
  }
}

function toIntent(row: IntentRow): ProviderPaymentIntent {
  return {
    id: row.id,
    status: row.status,
    amountMinor: row.amountMinor,
    currency: row.currency,
    captureMethod: row.captureMethod,
    amountCapturableMinor: row.amountCapturableMinor,
    amountReceivedMinor: row.amountReceivedMinor,
    amountRefundedMinor: row.amountRefundedMinor,
    paymentMethodId: row.paymentMethodId,
    setupFutureUsage: row.setupFutureUsage,
    customerRef: row.customerRef,
    metadata: row.metadata,
    lastErrorCode: row.lastErrorCode as ProviderErrorCode | null,
  };
}

function toMethod(row: MethodRow): ProviderPaymentMethod {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    fingerprint: row.fingerprint,
    customerRef: row.customerRef,
    detached: row.detachedAt !== null,
  };
}

async function lockIntent(tx: Db, id: string): Promise<IntentRow> {
  const [row] = await tx.select().from(cardProviderPaymentIntents).where(eq(cardProviderPaymentIntents.id, id)).for("update");
  if (!row) throw new CardProviderError(404, "resource_missing", `No such payment_intent: ${id}`);
  return row;
}

/** Stripe-like event body; `data.object` is the intent as it stands after the change. */
function eventPayload(id: string, type: ProviderEventType, intent: IntentRow, now: Date) {
  return {
    id,
    object: "event",
    type,
    created: Math.floor(now.getTime() / 1000),
    data: {
      object: {
        id: intent.id,
        object: "payment_intent",
        status: intent.status,
        amount: intent.amountMinor,
        currency: intent.currency.toLowerCase(),
        payment_method: intent.paymentMethodId,
        last_payment_error: intent.lastErrorCode ? { code: intent.lastErrorCode } : null,
        metadata: intent.metadata,
      },
    },
  };
}

async function raiseEvent(tx: Db, type: ProviderEventType, intent: IntentRow, now: Date): Promise<string> {
  const id = providerId("evt");
  await tx.insert(cardProviderEvents).values({ id, type, paymentIntentId: intent.id, payload: eventPayload(id, type, intent, now) });
  return id;
}

/** The outcome of charging a card once nothing (no challenge) stands in the way any more. */
async function settle(
  tx: Db,
  intent: IntentRow,
  method: MethodRow,
  behavior: Exclude<SandboxCardBehavior, "three_d_secure"> | "authentication_failed",
  now: Date,
): Promise<{ intent: IntentRow; eventId: string }> {
  if (behavior !== "succeed") {
    const lastErrorCode: ProviderErrorCode =
      behavior === "decline" ? "card_declined" : behavior === "insufficient_funds" ? "insufficient_funds" : "authentication_failed";
    const [failed] = await tx
      .update(cardProviderPaymentIntents)
      .set({ status: "requires_payment_method", paymentMethodId: method.id, lastErrorCode, updatedAt: now })
      .where(eq(cardProviderPaymentIntents.id, intent.id))
      .returning();
    return { intent: failed!, eventId: await raiseEvent(tx, "payment_intent.payment_failed", failed!, now) };
  }
  if (intent.setupFutureUsage && intent.customerRef) {
    await tx
      .update(cardProviderPaymentMethods)
      .set({ customerRef: intent.customerRef })
      .where(eq(cardProviderPaymentMethods.id, method.id));
  }
  const manual = intent.captureMethod === "manual";
  const [authorized] = await tx
    .update(cardProviderPaymentIntents)
    .set({
      status: manual ? "requires_capture" : "succeeded",
      paymentMethodId: method.id,
      lastErrorCode: null,
      amountCapturableMinor: manual ? intent.amountMinor : 0,
      amountReceivedMinor: manual ? 0 : intent.amountMinor,
      updatedAt: now,
    })
    .where(eq(cardProviderPaymentIntents.id, intent.id))
    .returning();
  const type = manual ? "payment_intent.amount_capturable_updated" : "payment_intent.succeeded";
  return { intent: authorized!, eventId: await raiseEvent(tx, type, authorized!, now) };
}

export const confirmCardSchema = z.object({
  number: z.string().max(40),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2199),
  cvc: z.string().max(8),
});

export interface ConfirmRequest {
  intentId: string;
  publishableKey: string;
  clientSecret: string;
  /** A new card as the buyer typed it, or a saved payment method of the intent's customer. */
  paymentMethod: { card: z.output<typeof confirmCardSchema> } | { id: string };
  setupFutureUsage: boolean;
  returnUrl: string;
  locale: string;
  now?: Date;
}

/** What the browser learns from a confirmation. */
export interface ConfirmResult {
  id: string;
  status: ProviderPaymentIntent["status"];
  paymentMethodId: string | null;
  lastErrorCode: ProviderErrorCode | null;
  /** Set when the buyer must pass the 3DS challenge page first. */
  redirectUrl: string | null;
}

function challengeUrl(gatewayKey: Buffer, intent: IntentRow): string {
  const locale = intent.locale && /^[a-z]{2}$/.test(intent.locale) ? `/${intent.locale}` : "";
  const query = new URLSearchParams({ client_secret: intentClientSecret(gatewayKey, intent.id) });
  return `${getConfig().publicBaseUrl}${locale}/card-provider-sandbox/challenge/${intent.id}?${query.toString()}`;
}

/** The 3DS challenge sends the buyer back to the gateway only: never an open redirect. */
function assertOwnOrigin(url: string) {
  if (!URL.canParse(url) || new URL(url).origin !== new URL(getConfig().publicBaseUrl).origin) {
    throw new CardProviderError(400, "url_invalid", "return_url must be on the payment page's origin.");
  }
}

/**
 * A POST with an idempotency key, as a real provider keeps it: the first call's answer is
 * stored with its change in one transaction; the same key again returns that answer and
 * changes nothing. A refusal is not stored (nothing was applied).
 */
async function idempotent<T extends Record<string, unknown>>(db: Db, key: string, operation: string, apply: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
    const [seen] = await tx.select().from(cardProviderIdempotencyKeys).where(eq(cardProviderIdempotencyKeys.key, key));
    if (seen) {
      if (seen.operation !== operation) throw new CardProviderError(400, "idempotency_key_in_use", "Keys for idempotent requests can only be used with the same parameters.");
      return seen.response as T;
    }
    const response = await apply(tx);
    await tx.insert(cardProviderIdempotencyKeys).values({ key, operation, response });
    return response;
  });
}

/**
 * The sandbox provider as a whole: the port the gateway's domain uses, plus the browser API
 * (confirm, 3DS challenge) a real provider would host on its own servers. It only exists in
 * the sandbox; production plugs a real provider into the port.
 */
export const sandboxCardProvider = {
  async createPaymentIntent(db, request) {
    const [created] = await db
      .insert(cardProviderPaymentIntents)
      .values({
        id: providerId("pi"),
        accountKey: request.publishableKey,
        idempotencyKey: request.idempotencyKey,
        amountMinor: request.amountMinor,
        currency: request.currency,
        captureMethod: request.captureMethod,
        customerRef: request.customerRef,
        metadata: request.metadata,
      })
      .onConflictDoNothing({ target: cardProviderPaymentIntents.idempotencyKey })
      .returning();
    if (created) return toIntent(created);
    const [existing] = await db
      .select()
      .from(cardProviderPaymentIntents)
      .where(eq(cardProviderPaymentIntents.idempotencyKey, request.idempotencyKey));
    if (!existing) throw new Error("card provider intent vanished");
    return toIntent(existing);
  },

  async retrievePaymentIntent(db, { id }) {
    const [row] = await db.select().from(cardProviderPaymentIntents).where(eq(cardProviderPaymentIntents.id, id));
    return row ? toIntent(row) : null;
  },

  async retrievePaymentMethod(db, { id }) {
    const [row] = await db.select().from(cardProviderPaymentMethods).where(eq(cardProviderPaymentMethods.id, id));
    return row ? toMethod(row) : null;
  },

  capturePaymentIntent(db, { id, amountMinor, idempotencyKey }) {
    return idempotent(db, idempotencyKey, "capture", async (tx) => {
      const intent = await lockIntent(tx, id);
      if (intent.status !== "requires_capture") {
        throw new CardProviderError(400, "payment_intent_unexpected_state", `This PaymentIntent is ${intent.status}.`);
      }
      if (amountMinor <= 0 || amountMinor > intent.amountCapturableMinor) {
        throw new CardProviderError(400, "amount_too_large", "The capture amount is above the capturable amount.");
      }
      await tx
        .update(cardProviderPaymentIntents)
        .set({ status: "succeeded", amountCapturableMinor: 0, amountReceivedMinor: amountMinor, updatedAt: new Date() })
        .where(eq(cardProviderPaymentIntents.id, id));
      return { capturedMinor: amountMinor, releasedMinor: intent.amountCapturableMinor - amountMinor };
    });
  },

  cancelPaymentIntent(db, { id, idempotencyKey }) {
    return idempotent(db, idempotencyKey, "cancel", async (tx) => {
      const intent = await lockIntent(tx, id);
      if (intent.status === "succeeded" || intent.status === "canceled") {
        throw new CardProviderError(400, "payment_intent_unexpected_state", `This PaymentIntent is ${intent.status}.`);
      }
      await tx
        .update(cardProviderPaymentIntents)
        .set({ status: "canceled", amountCapturableMinor: 0, updatedAt: new Date() })
        .where(eq(cardProviderPaymentIntents.id, id));
      return { releasedMinor: intent.amountCapturableMinor };
    });
  },

  refundPaymentIntent(db, { id, amountMinor, idempotencyKey }) {
    return idempotent(db, idempotencyKey, "refund", async (tx) => {
      const intent = await lockIntent(tx, id);
      if (intent.status !== "succeeded") {
        throw new CardProviderError(400, "payment_intent_unexpected_state", `This PaymentIntent is ${intent.status}.`);
      }
      if (amountMinor <= 0 || intent.amountRefundedMinor + amountMinor > intent.amountReceivedMinor) {
        throw new CardProviderError(400, "amount_too_large", "The refund is above the amount received.");
      }
      const refundId = providerId("re");
      await tx.insert(cardProviderRefunds).values({ id: refundId, paymentIntentId: id, amountMinor });
      await tx
        .update(cardProviderPaymentIntents)
        .set({ amountRefundedMinor: sql`${cardProviderPaymentIntents.amountRefundedMinor} + ${amountMinor}`, updatedAt: new Date() })
        .where(eq(cardProviderPaymentIntents.id, id));
      return { refundId };
    });
  },

  async detachPaymentMethod(db, { id }) {
    await db
      .update(cardProviderPaymentMethods)
      .set({ customerRef: null, detachedAt: new Date() })
      .where(eq(cardProviderPaymentMethods.id, id));
  },

  async browserConfirmation(db, { intent, publishableKey }) {
    const gatewayKey = await getGatewayKey(db);
    let nextActionUrl: string | null = null;
    if (intent.status === "requires_action") {
      const [row] = await db.select().from(cardProviderPaymentIntents).where(eq(cardProviderPaymentIntents.id, intent.id));
      if (row) nextActionUrl = challengeUrl(gatewayKey, row);
    }
    return {
      publishableKey,
      clientSecret: intentClientSecret(gatewayKey, intent.id),
      confirmUrl: `${SANDBOX_PROVIDER_API}/payment_intents/${intent.id}/confirm`,
      nextActionUrl,
    };
  },

  async verifyEvent(db, { rawBody, headers, now }) {
    if (!isGenuineSignature(await getGatewayKey(db), headers.get(SIGNATURE_HEADER), rawBody, now)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const event = inboundEventSchema.safeParse(parsed);
    if (!event.success) return null;
    const intent = event.data.data.object;
    return {
      id: event.data.id,
      type: event.data.type,
      paymentIntentId: intent.id,
      paymentMethodId: intent.payment_method ?? null,
      metadata: intent.metadata,
    };
  },

  /**
   * The browser's confirmation, with a new card or a saved one. A number, expiry or CVC that
   * cannot be valid is refused before anything is created; a valid card gets its token and
   * the test card's behaviour (succeed, decline, insufficient funds, 3DS challenge).
   */
  async confirmPaymentIntent(db: Db, request: ConfirmRequest): Promise<ConfirmResult> {
    const now = request.now ?? new Date();
    const gatewayKey = await getGatewayKey(db);
    assertOwnOrigin(request.returnUrl);
    const card = "card" in request.paymentMethod ? readCard(request.paymentMethod.card, now) : null;

    const { intent, eventId } = await db.transaction(async (tx) => {
      const intent = await lockIntent(tx, request.intentId);
      if (intent.accountKey !== request.publishableKey || !isIntentClientSecret(gatewayKey, intent.id, request.clientSecret)) {
        throw new CardProviderError(401, "authentication_failed", "Invalid publishable key or client secret.");
      }
      if (intent.status !== "requires_payment_method") {
        throw new CardProviderError(400, "payment_intent_unexpected_state", `This PaymentIntent is ${intent.status}.`);
      }
      let method: MethodRow;
      let behavior: SandboxCardBehavior;
      if (card) {
        behavior = sandboxBehaviorOf(card.digits);
        const [created] = await tx
          .insert(cardProviderPaymentMethods)
          .values({
            id: providerId("pm"),
            accountKey: intent.accountKey,
            brand: card.brand,
            last4: card.last4,
            expMonth: card.expMonth,
            expYear: card.expYear,
            fingerprint: cardFingerprint(gatewayKey, card.digits),
            testBehavior: behavior,
          })
          .returning();
        method = created!;
      } else {
        const id = (request.paymentMethod as { id: string }).id;
        const [saved] = await tx
          .select()
          .from(cardProviderPaymentMethods)
          .where(and(eq(cardProviderPaymentMethods.id, id), eq(cardProviderPaymentMethods.accountKey, intent.accountKey)));
        // Only a card attached to this intent's customer may be charged without its details.
        if (!saved || saved.detachedAt || !intent.customerRef || saved.customerRef !== intent.customerRef) {
          throw new CardProviderError(400, "resource_missing", `No such PaymentMethod: ${id}`);
        }
        if (isExpiryPast(saved.expMonth, saved.expYear, now)) {
          throw new CardProviderError(402, "expired_card", "The card has expired.");
        }
        method = saved;
        behavior = saved.testBehavior as SandboxCardBehavior;
      }
      const withChoice = { ...intent, setupFutureUsage: card ? request.setupFutureUsage : false };
      if (behavior === "three_d_secure") {
        const [waiting] = await tx
          .update(cardProviderPaymentIntents)
          .set({
            status: "requires_action",
            paymentMethodId: method.id,
            setupFutureUsage: withChoice.setupFutureUsage,
            returnUrl: request.returnUrl,
            locale: request.locale,
            lastErrorCode: null,
            updatedAt: now,
          })
          .where(eq(cardProviderPaymentIntents.id, intent.id))
          .returning();
        return { intent: waiting!, eventId: null };
      }
      if (withChoice.setupFutureUsage !== intent.setupFutureUsage) {
        await tx
          .update(cardProviderPaymentIntents)
          .set({ setupFutureUsage: withChoice.setupFutureUsage })
          .where(eq(cardProviderPaymentIntents.id, intent.id));
      }
      return settle(tx, withChoice, method, behavior, now);
    });
    if (eventId) deliverEventsSoon(db, [eventId]);
    return {
      id: intent.id,
      status: intent.status,
      paymentMethodId: intent.paymentMethodId,
      lastErrorCode: intent.lastErrorCode as ProviderErrorCode | null,
      redirectUrl: intent.status === "requires_action" ? challengeUrl(gatewayKey, intent) : null,
    };
  },

  /** What the 3DS challenge page shows: the amount being authorized; null for a wrong secret. */
  async challengeOf(db: Db, request: { intentId: string; clientSecret: string }) {
    const gatewayKey = await getGatewayKey(db);
    if (!/^pi_[A-Za-z0-9]{24}$/.test(request.intentId) || !isIntentClientSecret(gatewayKey, request.intentId, request.clientSecret)) {
      return null;
    }
    const [row] = await db
      .select({ intent: cardProviderPaymentIntents, method: cardProviderPaymentMethods })
      .from(cardProviderPaymentIntents)
      .leftJoin(cardProviderPaymentMethods, eq(cardProviderPaymentMethods.id, cardProviderPaymentIntents.paymentMethodId))
      .where(eq(cardProviderPaymentIntents.id, request.intentId));
    if (!row) return null;
    return {
      intentId: row.intent.id,
      status: row.intent.status,
      amountMinor: row.intent.amountMinor,
      currency: row.intent.currency,
      brand: row.method?.brand ?? null,
      last4: row.method?.last4 ?? null,
      returnUrl: row.intent.returnUrl,
      /** The gateway payment the intent was created for (its metadata), to name the merchant. */
      paymentId: row.intent.metadata.paymentId ?? null,
    };
  },

  /**
   * The buyer's answer on the 3DS challenge page: "complete" goes on as a card that needs no
   * challenge, "fail" refuses the payment. Returns where the buyer goes next.
   */
  async completeChallenge(
    db: Db,
    request: { intentId: string; clientSecret: string; outcome: "complete" | "fail"; now?: Date },
  ): Promise<{ returnUrl: string }> {
    const now = request.now ?? new Date();
    const gatewayKey = await getGatewayKey(db);
    if (!isIntentClientSecret(gatewayKey, request.intentId, request.clientSecret)) {
      throw new CardProviderError(401, "authentication_failed", "Invalid client secret.");
    }
    const { intent, eventId } = await db.transaction(async (tx) => {
      const intent = await lockIntent(tx, request.intentId);
      // Answered already (a double click, a reload): the buyer simply goes on.
      if (intent.status !== "requires_action") return { intent, eventId: null };
      const [method] = await tx
        .select()
        .from(cardProviderPaymentMethods)
        .where(eq(cardProviderPaymentMethods.id, intent.paymentMethodId ?? ""));
      if (!method) throw new Error(`payment method of ${intent.id} vanished`);
      return settle(tx, intent, method, request.outcome === "complete" ? "succeed" : "authentication_failed", now);
    });
    if (eventId) deliverEventsSoon(db, [eventId]);
    const returnUrl = new URL(intent.returnUrl ?? getConfig().publicBaseUrl);
    returnUrl.searchParams.set("payment_intent", intent.id);
    return { returnUrl: returnUrl.toString() };
  },
} satisfies CardProvider & Record<string, unknown>;

export type SandboxCardProvider = typeof sandboxCardProvider;

function readCard(card: z.output<typeof confirmCardSchema>, now: Date) {
  const number = checkCardNumber(card.number);
  if (!number.ok) {
    if (number.problem === "unsupported_brand") {
      throw new CardProviderError(402, "card_not_supported", "Only Visa and Mastercard cards are accepted.");
    }
    throw new CardProviderError(402, "incorrect_number", "The card number is incorrect.");
  }
  if (isExpiryPast(card.expMonth, card.expYear, now)) throw new CardProviderError(402, "invalid_expiry", "The card has expired.");
  if (!checkCvc(card.cvc).ok) throw new CardProviderError(402, "incorrect_cvc", "The CVC is incorrect.");
  return { digits: number.digits, brand: number.brand, last4: number.last4, expMonth: card.expMonth, expYear: card.expYear };
}

const inboundEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(["payment_intent.succeeded", "payment_intent.amount_capturable_updated", "payment_intent.payment_failed"]),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(100),
      payment_method: z.string().max(100).nullish(),
      metadata: z.record(z.string(), z.string()).default({}),
    }),
  }),
});
