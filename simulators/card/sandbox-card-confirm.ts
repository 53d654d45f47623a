import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { checkCardNumber, checkCvc, isExpiryPast } from "../../lib/validation/card-number";
import { getConfig } from "../../lib/config";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import type { Db } from "../../lib/db/client";
import { cardProviderPaymentIntents, cardProviderPaymentMethods } from "../card/card-tables";
import type { CardProvider, ProviderErrorCode, ProviderPaymentIntent } from "../../lib/providers/card/port";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";
import { lockIntent, type IntentRow, type MethodRow } from "./sandbox-card-rows";
import { settle } from "./sandbox-card-settlement";
import { deliverEventsSoon } from "./sandbox-event-delivery";
import { cardFingerprint, intentClientSecret, isIntentClientSecret, providerId } from "./sandbox-secrets";
import { sandboxBehaviorOf, type SandboxCardBehavior } from "./sandbox-test-cards";
import { challengePageUrl } from "../../lib/urls/hosted-urls";

/** The sandbox provider's browser API, mounted under this path of the gateway's host. */
export const SANDBOX_PROVIDER_API = "/api/card-provider-sandbox/v1";
/** The sandbox provider's stand-in for Stripe.js (stripe-js-stand-in.ts), beside its API. */
export const SANDBOX_STRIPE_JS = "/api/card-provider-sandbox/js/v3";

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
  /**
   * Stripe takes any return_url. The sandbox's own confirm (the gateway's host) keeps the buyer
   * on the gateway; the served simulator, which stands in for Stripe beside any gateway, does not.
   */
  anyReturnUrl?: boolean;
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
  return challengePageUrl({
    locale: intent.locale,
    intentId: intent.id,
    clientSecret: intentClientSecret(gatewayKey, intent.id),
  });
}

/** The 3DS challenge sends the buyer back to the gateway only: never an open redirect. */
function assertOwnOrigin(url: string) {
  if (!URL.canParse(url) || new URL(url).origin !== new URL(getConfig().publicBaseUrl).origin) {
    throw new CardProviderError(400, "url_invalid", "return_url must be on the payment page's origin.");
  }
}

/** The browser side of paying: what the payment page needs to confirm, and the confirmation itself. */
export const sandboxConfirmOperations = {
  async browserConfirmation(db, { intent, publishableKey }) {
    const gatewayKey = await getGatewayKey(db);
    let nextActionUrl: string | null = null;
    if (intent.status === "requires_action") {
      const [row] = await db
        .select()
        .from(cardProviderPaymentIntents)
        .where(eq(cardProviderPaymentIntents.id, intent.id));
      if (row) nextActionUrl = challengeUrl(gatewayKey, row);
    }
    return {
      stripeJsUrl: SANDBOX_STRIPE_JS,
      publishableKey,
      clientSecret: intentClientSecret(gatewayKey, intent.id),
      confirmUrl: `${SANDBOX_PROVIDER_API}/payment_intents/${intent.id}/confirm`,
      nextActionUrl,
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
    if (!request.anyReturnUrl) assertOwnOrigin(request.returnUrl);
    const card = "card" in request.paymentMethod ? readCard(request.paymentMethod.card, now) : null;

    const { intent, eventId } = await db.transaction(async (tx) => {
      const intent = await lockIntent(tx, request.intentId);
      if (
        intent.accountKey !== request.publishableKey ||
        !isIntentClientSecret(gatewayKey, intent.id, request.clientSecret)
      ) {
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
          .where(
            and(eq(cardProviderPaymentMethods.id, id), eq(cardProviderPaymentMethods.accountKey, intent.accountKey)),
          );
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
} satisfies Pick<CardProvider, "browserConfirmation"> & Record<string, unknown>;

function readCard(card: z.output<typeof confirmCardSchema>, now: Date) {
  const number = checkCardNumber(card.number);
  if (!number.ok) {
    if (number.problem === "unsupported_brand") {
      throw new CardProviderError(402, "card_not_supported", "Only Visa and Mastercard cards are accepted.");
    }
    throw new CardProviderError(402, "incorrect_number", "The card number is incorrect.");
  }
  if (isExpiryPast(card.expMonth, card.expYear, now))
    throw new CardProviderError(402, "invalid_expiry", "The card has expired.");
  if (!checkCvc(card.cvc).ok) throw new CardProviderError(402, "incorrect_cvc", "The CVC is incorrect.");
  return {
    digits: number.digits,
    brand: number.brand,
    last4: number.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
}
