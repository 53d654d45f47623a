import { z } from "zod";
import {
  getEventResponse,
  listEventsQuery,
  listEventsResponse,
  redeliverEventResponse,
} from "../../events/events.schema";
import { defineOperation } from "./operation";

const tag = "Events";

export const listEvents = defineOperation({
  method: "GET",
  path: "/api/v1/events",
  operationId: "listEvents",
  tag,
  summary: "The service's events (notifications), newest first",
  description:
    "Every notification is an event, kept 30 days, in both environments. " +
    "Page with `startingAfter` (the last id you got) while `hasMore` is true. " +
    "Filter by `type`, `paymentId` or `deliveryStatus`.",
  auth: ["client"],
  query: listEventsQuery,
  response: listEventsResponse,
  envelopeFields: {
    hasMore: z.boolean().meta({ description: "True when older events remain: ask again with `startingAfter`." }),
  },
});

export const getEvent = defineOperation({
  method: "GET",
  path: "/api/v1/events/:id",
  operationId: "getEvent",
  tag,
  summary: "One event with every delivery attempt",
  description: "The id is the `webhook-id`. Another service's event is 404.",
  auth: ["client"],
  response: getEventResponse,
  errors: ["not_found"],
});

export const redeliverEvent = defineOperation({
  method: "POST",
  path: "/api/v1/events/:id/redeliver",
  operationId: "redeliverEvent",
  tag,
  summary: "Deliver an event once more, now",
  description:
    "Same `webhook-id`, fresh `webhook-timestamp`. Answers 202 at once; the attempt shows in the event's attempts. " +
    "409 `invalid_state` while an attempt is in flight or when the service has no webhook URL.",
  auth: ["client"],
  status: 202,
  response: redeliverEventResponse,
  errors: ["not_found", "invalid_state"],
});
