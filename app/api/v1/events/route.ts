import * as op from "@/lib/api/operations/events";
import { listEvents } from "@/lib/events/list-events";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/events?limit=20&startingAfter=msg_...&type=payment.succeeded&paymentId=...&deliveryStatus=failed
export const GET = endpoint(op.listEvents, async ({ db, principal, query }) => {
  const { events, hasMore } = await listEvents(db, { serviceId: principal.service.id, ...query });
  return { data: events, envelope: { hasMore }, message: "Events, newest first." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
