import * as op from "@/lib/api/operations/internals";
import { ApiError, invalidCredentials } from "@/lib/errors/api-error";
import { endpoint } from "@/lib/http/endpoint";
import { readCapped } from "@/lib/http/read-json-body";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { notifyRedirect } from "@/lib/payments/hosted/redirect-payment";

// POST /api/v1/redirect-notifications/{paymentId} (a redirect provider's signed notification, e.g. Chargily's
// webhook; no gateway credential)
export const POST = endpoint(op.receiveRedirectNotification, async ({ db, request, params }) => {
  // The signature covers the exact bytes, so the body is read raw, not parsed first.
  const received = await notifyRedirect(db, {
    paymentId: params.id!,
    body: await readCapped(request),
    headers: request.headers,
  });
  if (received.kind === "unknown_payment")
    throw new ApiError("not_found", "No payment of a notifying provider has this id.");
  if (received.kind === "rejected") throw invalidCredentials("The notification's signature does not verify.");
  const settled = received.settlement.kind === "settled" || received.settlement.kind === "reversed";
  return { data: { paymentId: params.id!, settled }, message: "Notification received." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
