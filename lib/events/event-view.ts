import type { notifications } from "../db/schema";
import type { DeliveryStatus, EventView } from "./events.schema";

type NotificationRow = typeof notifications.$inferSelect;

export interface LastAttempt {
  attemptedAt: Date;
  responseStatus: number | null;
}

/** The outbox's four states as the Events API tells them (contract 12). */
export function deliveryStatusOf(status: NotificationRow["status"]): DeliveryStatus {
  switch (status) {
    case "pending":
      return "pending";
    case "delivered":
      return "delivered";
    case "abandoned":
    case "undeliverable":
      return "failed";
  }
}

/** The outbox states one API delivery status stands for. */
export function notificationStatusesOf(status: DeliveryStatus): NotificationRow["status"][] {
  switch (status) {
    case "pending":
      return ["pending"];
    case "delivered":
      return ["delivered"];
    case "failed":
      return ["abandoned", "undeliverable"];
  }
}

export function toEventView(row: NotificationRow, last: LastAttempt | undefined): EventView {
  const body = row.payload as Pick<EventView, "createdAt" | "data">;
  const status = deliveryStatusOf(row.status);
  return {
    id: row.id,
    type: row.type as EventView["type"],
    createdAt: body.createdAt,
    data: body.data,
    delivery: {
      status,
      attempts: row.attemptCount,
      lastAttemptAt: last?.attemptedAt.toISOString() ?? null,
      lastStatusCode: last?.responseStatus ?? null,
      nextAttemptAt: status === "pending" ? row.nextAttemptAt.toISOString() : null,
    },
  };
}
