import { ulid } from "ulid";
import type { Db } from "../db/client";
import { notifications } from "../db/schema";

/** Contract section 7 event types and the remoteStatusCode each carries. */
export type NotificationType =
  | "payment.succeeded"
  | "payment.failed"
  | "payment.pre_authorized"
  | "payment.captured"
  | "payment.released"
  | "payment.refunded";

/** `data` of the webhook body; amounts already in standard units (the JSON edge). */
export interface PaymentNotificationData {
  paymentId: string;
  actionId: string;
  remoteStatusCode: number;
  statusCode: number;
  status: string;
  amount: number;
  currency: string;
  capturedAmount?: number;
  refundedAmount?: number;
}

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
    payload: { id, type: options.type, createdAt: options.now.toISOString(), data: options.data },
  });
  return id;
}
