import { z } from "zod";

/** Query of GET /api/v1/sandbox/webhooks. */
export const listServiceNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  paymentId: z.uuid().optional(),
});

export type ListServiceNotificationsQuery = z.output<typeof listServiceNotificationsQuery>;

export const notificationAttemptView = z.object({
  number: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  attemptedAt: z.iso.datetime(),
});

export const notificationView = z.object({
  id: z.string().meta({ description: "The `webhook-id` of every attempt." }),
  type: z.string(),
  paymentId: z.string().nullable(),
  status: z.enum(["pending", "delivered", "abandoned", "undeliverable"]),
  attemptCount: z.number().int(),
  nextAttemptAt: z.iso.datetime().nullable().meta({ description: "When the next attempt is due; null once settled." }),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
  payload: z.unknown().meta({ description: "The body as sent (signed) to the webhook URL." }),
  attempts: z.array(notificationAttemptView),
});

export type NotificationAttemptView = z.infer<typeof notificationAttemptView>;
export type NotificationView = z.infer<typeof notificationView>;
