import { z } from "zod";

/** Contract section 7: the event types and the remoteStatusCode each carries. */
export const NOTIFICATION_TYPES = {
  "payment.succeeded": 2,
  "payment.failed": 3,
  "payment.pre_authorized": 13,
  "payment.captured": 2,
  "payment.released": 10,
  "payment.refunded": 4,
} as const;

export type NotificationType = keyof typeof NOTIFICATION_TYPES;

/** `data` of the webhook body; amounts already in standard units (the JSON edge). */
export const paymentNotificationData = z
  .object({
    paymentId: z.uuid(),
    actionId: z.string().meta({ description: "The merchant's id from create intent." }),
    remoteStatusCode: z
      .number()
      .int()
      .meta({ description: "2 succeeded or captured, 3 failed, 13 pre-authorized, 10 released, 4 refunded." }),
    statusCode: z.number().int().meta({ description: "What check answers now (16 after a partial refund)." }),
    status: z.string(),
    amount: z.number(),
    currency: z.string().length(3),
    capturedAmount: z.number().optional(),
    refundedAmount: z.number().optional().meta({ description: "payment.refunded: the amount of this refund." }),
    paymentLinkId: z
      .string()
      .optional()
      .meta({ description: "A payment link's payment: the link's id (its intent's `metaData.paymentLinkId`)." }),
  })
  .meta({ id: "PaymentNotificationData" });

export type PaymentNotificationData = z.infer<typeof paymentNotificationData>;

/** The signed JSON body POSTed to the service's webhook URL. */
export const webhookPayload = z
  .object({
    id: z
      .string()
      .meta({ description: "Same as the `webhook-id` header; stays the same across retries (deduplicate on it)." }),
    type: z.enum(Object.keys(NOTIFICATION_TYPES) as [NotificationType, ...NotificationType[]]),
    createdAt: z.iso.datetime(),
    data: paymentNotificationData,
  })
  .meta({ id: "WebhookPayload" });

export type WebhookPayload = z.infer<typeof webhookPayload>;
