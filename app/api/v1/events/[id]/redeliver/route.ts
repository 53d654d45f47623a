import * as op from "@/lib/api/operations/events";
import { redeliverEvent } from "@/lib/events/redeliver-event";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/events/:id/redeliver
export const POST = endpoint(op.redeliverEvent, async ({ db, principal, params }) => ({
  data: await redeliverEvent(db, { serviceId: principal.service.id, id: params.id ?? "" }),
  message: "The event is being delivered once more, with the same webhook-id.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
