import { eq, sql } from "drizzle-orm";
import { cardProviderPaymentIntents, cardProviderPaymentMethods, cardProviderRefunds } from "../card/card-tables";
import type { CardProvider } from "../../lib/providers/card/port";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";
import { idempotent, lockIntent, toIntent, toMethod } from "./sandbox-card-rows";
import { providerId } from "./sandbox-secrets";

/** The sandbox provider's server-side intent operations: create, read, capture, cancel, refund, detach. */
export const sandboxIntentOperations = {
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
        .set({
          amountRefundedMinor: sql`${cardProviderPaymentIntents.amountRefundedMinor} + ${amountMinor}`,
          updatedAt: new Date(),
        })
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
} satisfies Pick<
  CardProvider,
  | "createPaymentIntent"
  | "retrievePaymentIntent"
  | "retrievePaymentMethod"
  | "capturePaymentIntent"
  | "cancelPaymentIntent"
  | "refundPaymentIntent"
  | "detachPaymentMethod"
>;
