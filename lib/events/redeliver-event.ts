import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { notifications, services } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { getEvent } from "./get-event";
import type { EventView } from "./events.schema";

/**
 * Makes the event due for one more delivery now (contract 12): the delivery worker sends it
 * with the same `webhook-id` and a fresh `webhook-timestamp`, as any retry. A delivered or
 * failed event becomes pending again; if that attempt fails, the retry schedule goes on from
 * the attempt count. Refused while an attempt is in flight (the worker holds its lease), and
 * when the service has no webhook URL to send to.
 */
export async function redeliverEvent(
  db: Db,
  options: { serviceId: string; id: string },
): Promise<Pick<EventView, "id" | "delivery">> {
  await getEvent(db, options); // not_found for an unknown or another service's event
  const [service] = await db
    .select({ webhookUrl: services.webhookUrl })
    .from(services)
    .where(eq(services.id, options.serviceId));
  if (!service?.webhookUrl) {
    throw new ApiError(
      "invalid_state",
      "The service has no webhook URL to deliver to; set one with `npm run merchant -- update`.",
    );
  }
  const updated = await db
    .update(notifications)
    .set({ status: "pending", nextAttemptAt: sql`now()`, deliveredAt: null })
    .where(
      and(
        eq(notifications.id, options.id),
        eq(notifications.serviceId, options.serviceId),
        or(isNull(notifications.leasedUntil), lt(notifications.leasedUntil, sql`now()`)),
      ),
    )
    .returning({ id: notifications.id });
  if (updated.length === 0) {
    throw new ApiError("invalid_state", "A delivery of this event is under way; ask again once it has finished.");
  }
  const { id, delivery } = await getEvent(db, options);
  return { id, delivery };
}
