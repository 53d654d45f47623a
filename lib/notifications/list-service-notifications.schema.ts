import { z } from "zod";

/** Query of GET /api/v1/sandbox/webhooks. */
export const listServiceNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  paymentId: z.uuid().optional(),
});

export type ListServiceNotificationsQuery = z.output<typeof listServiceNotificationsQuery>;

export interface NotificationAttemptView {
  number: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
}

export interface NotificationView {
  id: string;
  type: string;
  paymentId: string | null;
  status: "pending" | "delivered" | "abandoned" | "undeliverable";
  attemptCount: number;
  /** When the next attempt is due; null once the notification is settled. */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** The body as sent (signed) to the webhook URL. */
  payload: unknown;
  attempts: NotificationAttemptView[];
}
