import { z } from "zod";
import { pageLimit } from "../validation/page-limit";
import {
  NOTIFICATION_TYPES,
  paymentNotificationData,
  type NotificationType,
} from "../notifications/notification.schema";

/**
 * Events API (contract 12): request and response schemas of GET /api/v1/events,
 * GET /api/v1/events/:id and POST /api/v1/events/:id/redeliver. An event is a notification
 * of contract 7; its `id` is the `webhook-id`.
 */
export const EVENT_TYPES = Object.keys(NOTIFICATION_TYPES) as [NotificationType, ...NotificationType[]];

/** pending: more attempts to come; delivered: a 2xx came back; failed: no attempt left (or no webhook URL). */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const EVENT_ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;
export const eventId = z
  .string()
  .regex(EVENT_ID, "must be an event id (msg_ followed by 26 characters), as the webhook-id header carries it");

export const listEventsQuery = z.object({
  limit: pageLimit("Events"),
  startingAfter: eventId
    .optional()
    .meta({ description: "The last event id of the previous page: the next page starts after it." }),
  type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(", ")}` }).optional(),
  paymentId: z.uuid("must be a payment id (a UUID)").optional().meta({ description: "Only this payment's events." }),
  deliveryStatus: z
    .enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` })
    .optional()
    .meta({
      description:
        "pending: more attempts to come; delivered: a 2xx came back; failed: no attempt left, or no webhook URL.",
    }),
});
export type ListEventsQuery = z.output<typeof listEventsQuery>;

/** Path of GET /api/v1/events/:id and POST /api/v1/events/:id/redeliver; a malformed id is simply not found. */
export const eventParams = z.object({ id: eventId });

/** `data` of the webhook body (contract 7); amounts in standard units. */
export const eventPaymentData = paymentNotificationData;

export const eventDelivery = z.object({
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().min(0),
  lastAttemptAt: z.iso.datetime().nullable(),
  /** HTTP status of the last answer; null when none came back (refused address, timeout) or no attempt yet. */
  lastStatusCode: z.number().int().nullable(),
  /** When the next attempt is due; null once the event is settled. */
  nextAttemptAt: z.iso.datetime().nullable(),
});

export const eventView = z.object({
  id: z.string().describe("The webhook-id of every delivery of this event."),
  type: z.enum(EVENT_TYPES),
  createdAt: z.iso.datetime(),
  data: eventPaymentData,
  delivery: eventDelivery,
});
export type EventView = z.output<typeof eventView>;

export const eventAttemptView = z.object({
  at: z.iso.datetime(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().min(0),
});

export const eventDetailView = eventView.extend({ attempts: z.array(eventAttemptView) });
export type EventDetailView = z.output<typeof eventDetailView>;

/** `data` of GET /api/v1/events; the envelope also carries `hasMore`. */
export const listEventsResponse = z.array(eventView);
export const getEventResponse = eventDetailView;
/** 202: the event is due for one more delivery now. */
export const redeliverEventResponse = z.object({ id: z.string(), delivery: eventDelivery });
