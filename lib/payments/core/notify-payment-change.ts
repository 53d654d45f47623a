import type { Db } from "../../db/client";
import { fromMinorUnits } from "../../money/amount";
import { enqueueNotification, type NotificationType } from "../../notifications/enqueue-notification";
import type { PaymentRow } from "../../db/payment-record";
import { checkStatusCode, type PaymentEvent } from "./payment-state";

/**
 * Contract section 7 and 11: every change into 2, 3, 13, 10, 4 or 16 sends one notification.
 * Null: the event leads to a state the merchant is not told about (12, processing).
 */
export function notificationOf(event: PaymentEvent): { type: NotificationType; remoteStatusCode: number } | null {
  switch (event) {
    case "require_action":
    case "start_processing":
      return null;
    case "succeed":
      return { type: "payment.succeeded", remoteStatusCode: 2 };
    case "fail":
    case "expire":
      return { type: "payment.failed", remoteStatusCode: 3 };
    case "pre_authorize":
      return { type: "payment.pre_authorized", remoteStatusCode: 13 };
    case "capture":
      return { type: "payment.captured", remoteStatusCode: 2 };
    case "release":
    case "release_stale":
      return { type: "payment.released", remoteStatusCode: 10 };
    case "refund_full":
    case "refund_partial":
      return { type: "payment.refunded", remoteStatusCode: 4 };
  }
}

export async function notifyPaymentChange(
  tx: Db,
  options: { payment: PaymentRow; event: PaymentEvent; now: Date; capturedMinor?: number; refundedMinor?: number },
): Promise<void> {
  const notification = notificationOf(options.event);
  if (!notification) return;
  const { payment } = options;
  const currency = payment.currency;
  await enqueueNotification(tx, {
    serviceId: payment.serviceId,
    type: notification.type,
    now: options.now,
    data: {
      paymentId: payment.id,
      actionId: payment.actionId,
      remoteStatusCode: notification.remoteStatusCode,
      statusCode: checkStatusCode(payment.state),
      status: payment.status,
      amount: fromMinorUnits(payment.amountMinor, currency),
      currency,
      ...(options.capturedMinor !== undefined
        ? { capturedAmount: fromMinorUnits(options.capturedMinor, currency) }
        : {}),
      ...(options.refundedMinor !== undefined
        ? { refundedAmount: fromMinorUnits(options.refundedMinor, currency) }
        : {}),
      ...paymentLinkOf(payment),
    },
  });
}

/** Contract 14: a payment link's payment names its link in every notification (its metaData.paymentLinkId). */
function paymentLinkOf(payment: PaymentRow): { paymentLinkId?: string } {
  const meta = payment.metaData as Record<string, unknown> | null;
  const id = meta?.paymentLinkId;
  return typeof id === "string" ? { paymentLinkId: id } : {};
}
