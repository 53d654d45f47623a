import { ulid } from "ulid";
import type { Db } from "../db/client";
import { notifications } from "../db/schema";
import type { NotificationType, PaymentNotificationData, WebhookPayload } from "./notification.schema";

export type { NotificationType, PaymentNotificationData } from "./notification.schema";

/**
 * `now` is the service's clock (the sandbox may have moved it): it dates the event body,
 * while delivery scheduling stays on the database's real time.
 *
 * Writes the notification into the outbox. Call it with the transaction that makes the
 * state change, so the change and its notification commit or roll back together.
 */
export async function enqueueNotification(
  tx: Db,
  options: { serviceId: string; type: NotificationType; data: PaymentNotificationData; now: Date },
): Promise<string> {
  const id = `msg_${ulid()}`;
  await tx.insert(notifications).values({
    id,
    serviceId: options.serviceId,
    paymentId: options.data.paymentId,
    type: options.type,
    payload: {
      id,
      type: options.type,
      createdAt: options.now.toISOString(),
      data: options.data,
    } satisfies WebhookPayload,
  });
  return id;
}
