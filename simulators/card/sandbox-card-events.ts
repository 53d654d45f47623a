import { z } from "zod";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import type { CardProvider } from "../../lib/providers/card/port";
import { isGenuineSignature, SIGNATURE_HEADER } from "./sandbox-secrets";

/** Events the sandbox provider signed and delivered to the gateway's webhook, checked and read. */
export const sandboxEventOperations = {
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
} satisfies Pick<CardProvider, "verifyEvent">;

const inboundEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum([
    "payment_intent.succeeded",
    "payment_intent.amount_capturable_updated",
    "payment_intent.payment_failed",
  ]),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(100),
      payment_method: z.string().max(100).nullish(),
      metadata: z.record(z.string(), z.string()).default({}),
    }),
  }),
});
