import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { notificationAttempts, notifications } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { eventId, type EventDetailView } from "./events.schema";
import { toEventView } from "./event-view";

/** One of the service's events with every delivery attempt; another service's is not found. */
export async function getEvent(db: Db, options: { serviceId: string; id: string }): Promise<EventDetailView> {
  if (!eventId.safeParse(options.id).success) throw new ApiError("not_found", "No such event.");
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, options.id), eq(notifications.serviceId, options.serviceId)));
  if (!row) throw new ApiError("not_found", "No such event.");
  const attempts = await db
    .select()
    .from(notificationAttempts)
    .where(eq(notificationAttempts.notificationId, row.id))
    .orderBy(asc(notificationAttempts.attemptNumber));
  const last = attempts.at(-1);
  return {
    ...toEventView(row, last),
    attempts: attempts.map((attempt) => ({
      at: attempt.attemptedAt.toISOString(),
      statusCode: attempt.responseStatus,
      error: attempt.error,
      durationMs: attempt.durationMs,
    })),
  };
}
