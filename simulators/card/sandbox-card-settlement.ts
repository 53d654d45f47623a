import { eq } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { cardProviderEvents, cardProviderPaymentIntents, cardProviderPaymentMethods } from "../card/card-tables";
import type { ProviderErrorCode, ProviderEventType } from "../../lib/providers/card/port";
import type { IntentRow, MethodRow } from "./sandbox-card-rows";
import { providerId } from "./sandbox-secrets";
import type { SandboxCardBehavior } from "./sandbox-test-cards";

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
  await tx
    .insert(cardProviderEvents)
    .values({ id, type, paymentIntentId: intent.id, payload: eventPayload(id, type, intent, now) });
  return id;
}

/** The outcome of charging a card once nothing (no challenge) stands in the way any more. */
export async function settle(
  tx: Db,
  intent: IntentRow,
  method: MethodRow,
  behavior: Exclude<SandboxCardBehavior, "three_d_secure"> | "authentication_failed",
  now: Date,
): Promise<{ intent: IntentRow; eventId: string }> {
  if (behavior !== "succeed") {
    const lastErrorCode: ProviderErrorCode =
      behavior === "decline"
        ? "card_declined"
        : behavior === "insufficient_funds"
          ? "insufficient_funds"
          : "authentication_failed";
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
