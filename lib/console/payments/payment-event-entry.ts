import { z } from "zod";
import type { EventView } from "../../events/events.schema";
import { paymentNotificationData, type PaymentNotificationData } from "../../notifications/notification.schema";

/**
 * One of a payment's events as the detail page lists it. The body is stored JSON that older
 * writers (a seeder, an earlier release) may have left without a field: each field is parsed on
 * its own, and what does not read is null, so the page shows the rest instead of failing.
 */
export interface PaymentEventEntry {
  id: string;
  type: string;
  /** The body's createdAt; null when it has none that reads as a time. */
  createdAt: Date | null;
  /** The body's data where it reads as contract 7's, else null. */
  data: PaymentNotificationData | null;
  delivery: EventView["delivery"];
}

const isoTime = z.iso.datetime({ offset: true });

export function paymentEventEntryOf(event: EventView): PaymentEventEntry {
  const createdAt = isoTime.safeParse(event.createdAt);
  const data = paymentNotificationData.safeParse(event.data);
  return {
    id: event.id,
    type: String(event.type),
    createdAt: createdAt.success ? new Date(createdAt.data) : null,
    data: data.success ? data.data : null,
    delivery: event.delivery,
  };
}
