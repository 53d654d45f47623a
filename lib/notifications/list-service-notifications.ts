import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { notificationAttempts, notifications } from "../db/schema";
import type { ListServiceNotificationsQuery, NotificationView } from "./list-service-notifications.schema";

/** The service's most recent notifications, newest first, each with its attempts; never another service's. */
export async function listServiceNotifications(
  db: Db,
  options: { serviceId: string } & ListServiceNotificationsQuery,
): Promise<NotificationView[]> {
  const filters: SQL[] = [eq(notifications.serviceId, options.serviceId)];
  if (options.paymentId) filters.push(eq(notifications.paymentId, options.paymentId));
  const rows = await db
    .select()
    .from(notifications)
    .where(and(...filters))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit);
  if (rows.length === 0) return [];

  const attempts = await db
    .select()
    .from(notificationAttempts)
    .where(
      inArray(
        notificationAttempts.notificationId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(notificationAttempts.attemptNumber));
  const attemptsById = new Map<string, (typeof attempts)[number][]>();
  for (const attempt of attempts) {
    const list = attemptsById.get(attempt.notificationId);
    if (list) list.push(attempt);
    else attemptsById.set(attempt.notificationId, [attempt]);
  }

  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    paymentId: row.paymentId,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    payload: row.payload,
    attempts: (attemptsById.get(row.id) ?? []).map((attempt) => ({
      number: attempt.attemptNumber,
      responseStatus: attempt.responseStatus,
      error: attempt.error,
      durationMs: attempt.durationMs,
      attemptedAt: attempt.attemptedAt.toISOString(),
    })),
  }));
}
