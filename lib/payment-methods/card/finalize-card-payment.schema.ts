import { z } from "zod";

/** POST /api/v1/payments/intents/:id/card-provider-finalize */
export const cardFinalizeBody = z.object({
  // The provider's payment intent id.
  paymentIntentId: z.string().trim().min(1).max(255),
  // The provider's payment method id of the confirmed card.
  externalCardId: z.string().trim().min(1).max(255),
});

export type CardFinalizeBody = z.output<typeof cardFinalizeBody>;

/** Interface "card finalize" response `data`. */
export interface CardFinalizeOutcome {
  status: "succeeded";
  paymentId: string;
  /** Present when the payment saved the card, or was paid with a saved card. */
  cardId?: string;
  /** The payment's status code after finalizing (2 DIRECT, 13 RESERVATION); not part of `data`. */
  statusCode: number;
}

/** Interface "card finalize" response `data`. */
export const cardFinalizeView = z.object({
  status: z.literal("succeeded"),
  paymentId: z.uuid(),
  cardId: z
    .string()
    .optional()
    .meta({ description: "Present when the buyer saved the card (or paid with a saved one)." }),
});

export function toCardFinalizeView(outcome: CardFinalizeOutcome): z.infer<typeof cardFinalizeView> {
  return {
    status: outcome.status,
    paymentId: outcome.paymentId,
    ...(outcome.cardId ? { cardId: outcome.cardId } : {}),
  };
}
