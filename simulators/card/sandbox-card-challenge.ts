import { eq } from "drizzle-orm";
import { getConfig } from "../../lib/config";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import type { Db } from "../../lib/db/client";
import { cardProviderPaymentIntents, cardProviderPaymentMethods } from "../card/card-tables";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";
import { lockIntent } from "./sandbox-card-rows";
import { settle } from "./sandbox-card-settlement";
import { deliverEventsSoon } from "./sandbox-event-delivery";
import { isIntentClientSecret } from "./sandbox-secrets";

/** The 3DS challenge page's side of the sandbox provider: what it shows and the buyer's answer. */
export const sandboxChallengeOperations = {
  /** What the 3DS challenge page shows: the amount being authorized; null for a wrong secret. */
  async challengeOf(db: Db, request: { intentId: string; clientSecret: string }) {
    const gatewayKey = await getGatewayKey(db);
    if (
      !/^pi_[A-Za-z0-9]{24}$/.test(request.intentId) ||
      !isIntentClientSecret(gatewayKey, request.intentId, request.clientSecret)
    ) {
      return null;
    }
    const [row] = await db
      .select({ intent: cardProviderPaymentIntents, method: cardProviderPaymentMethods })
      .from(cardProviderPaymentIntents)
      .leftJoin(
        cardProviderPaymentMethods,
        eq(cardProviderPaymentMethods.id, cardProviderPaymentIntents.paymentMethodId),
      )
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
};
