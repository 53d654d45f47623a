import * as op from "@/lib/api/operations/events";
import { getEvent } from "@/lib/events/get-event";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/events/:id
export const GET = endpoint(op.getEvent, async ({ db, principal, params }) => ({
  data: await getEvent(db, { serviceId: principal.service.id, id: params.id ?? "" }),
  message: "The event and its delivery attempts.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
