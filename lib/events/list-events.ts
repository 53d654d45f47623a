import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { notificationAttempts, notifications } from "../db/schema";
import { ApiError } from "../errors/api-error";
import type { EventView, ListEventsQuery } from "./events.schema";
import { notificationStatusesOf, toEventView, type LastAttempt } from "./event-view";

/**
 * The service's events, newest first, a page of `limit` after the `startingAfter` event
 * (contract 12). Only the service's own events exist here: another service's id as a cursor
 * is refused like an unknown one.
 */
export async function listEvents(
  db: Db,
  options: { serviceId: string } & ListEventsQuery,
): Promise<{ events: EventView[]; hasMore: boolean }> {
  const filters: SQL[] = [eq(notifications.serviceId, options.serviceId)];
  if (options.type) filters.push(eq(notifications.type, options.type));
  if (options.paymentId) filters.push(eq(notifications.paymentId, options.paymentId));
  if (options.deliveryStatus)
    filters.push(inArray(notifications.status, notificationStatusesOf(options.deliveryStatus)));
  if (options.startingAfter) {
    const [cursor] = await db
      .select({ createdAt: notifications.createdAt })
      .from(notifications)
      .where(and(eq(notifications.id, options.startingAfter), eq(notifications.serviceId, options.serviceId)));
    if (!cursor) {
      throw new ApiError("validation_error", "The request is invalid.", [
        { path: "query.startingAfter", message: "must be the id of one of this service's events (kept 30 days)" },
      ]);
    }
    filters.push(
      or(
        lt(notifications.createdAt, cursor.createdAt),
        and(eq(notifications.createdAt, cursor.createdAt), lt(notifications.id, options.startingAfter)),
      )!,
    );
  }
  const rows = await db
    .select()
    .from(notifications)
    .where(and(...filters))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = await lastAttempts(
    db,
    page.map((row) => row.id),
  );
  return { events: page.map((row) => toEventView(row, last.get(row.id))), hasMore: rows.length > options.limit };
}

/** The latest attempt of each event, in one statement. */
async function lastAttempts(db: Db, ids: string[]): Promise<Map<string, LastAttempt>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([notificationAttempts.notificationId], {
      notificationId: notificationAttempts.notificationId,
      attemptedAt: notificationAttempts.attemptedAt,
      responseStatus: notificationAttempts.responseStatus,
    })
    .from(notificationAttempts)
    .where(inArray(notificationAttempts.notificationId, ids))
    .orderBy(notificationAttempts.notificationId, sql`${notificationAttempts.attemptNumber} desc`);
  return new Map(rows.map((row) => [row.notificationId, row]));
}
