import * as op from "@/lib/api/operations/internals";
import { endpoint } from "@/lib/http/endpoint";
import { readCapped } from "@/lib/http/read-json-body";
import { receiveCardProviderEvent } from "@/lib/payments/receive-card-provider-event";

// POST /api/v1/webhooks/card-provider (the card provider's signed events; no gateway credential)
export const POST = endpoint(op.receiveCardProviderEvent, async ({ db, request }) => {
  // The signature covers the exact bytes, so the body is read raw, not parsed first.
  const received = await receiveCardProviderEvent(db, { rawBody: await readCapped(request), headers: request.headers });
  return { data: received, message: received.handled ? "Event processed." : "Event acknowledged." };
});
