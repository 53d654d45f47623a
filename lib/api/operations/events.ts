import {
  getEventResponse,
  listEventsQuery,
  listEventsResponse,
  redeliverEventResponse,
} from "../../events/events.schema";
import { defineOperation } from "../operation";

const events = "Events";

export const listEvents = defineOperation({
  method: "GET",
  path: "/api/v1/events",
  operationId: "listEvents",
  tag: events,
  summary: "List the service's events, newest first",
  description:
    "Every notification (see `webhooks`) is an event of its service, kept 30 days, in both environments. `id` is the `webhook-id`. Page with `startingAfter` (the last id of the previous page) while the envelope's `hasMore` is true.",
  auth: ["client"],
  query: listEventsQuery,
  response: listEventsResponse,
});

export const getEvent = defineOperation({
  method: "GET",
  path: "/api/v1/events/:id",
  operationId: "getEvent",
  tag: events,
  summary: "One event with every delivery attempt",
  description: "Another service's event answers 404 like an unknown one.",
  auth: ["client"],
  response: getEventResponse,
  errors: ["not_found"],
});

export const redeliverEvent = defineOperation({
  method: "POST",
  path: "/api/v1/events/:id/redeliver",
  operationId: "redeliverEvent",
  tag: events,
  summary: "Deliver the event once more, now",
  description:
    "202: the delivery worker sends it again with the same `webhook-id` and a fresh `webhook-timestamp`. 409 `invalid_state` while an attempt is in flight or when the service has no webhook URL.",
  auth: ["client"],
  status: 202,
  response: redeliverEventResponse,
  errors: ["not_found", "invalid_state"],
});
