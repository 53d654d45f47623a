import * as op from "@/lib/api/operations/internals";
import { endpoint } from "@/lib/http/endpoint";
import { readCapped } from "@/lib/http/read-json-body";
import { receiveCardProviderEvent } from "@/lib/payment-methods/registry/method-entry-points";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/webhooks/card-provider (the card provider's signed events; no gateway credential)
export const POST = endpoint(op.receiveCardProviderEvent, async ({ db, request }) => {
  // The signature covers the exact bytes, so the body is read raw, not parsed first.
  const received = await receiveCardProviderEvent(db, { rawBody: await readCapped(request), headers: request.headers });
  return { data: received, message: received.handled ? "Event processed." : "Event acknowledged." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
