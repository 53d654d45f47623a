import { getConfig } from "@/lib/config";
import { requestIdFor } from "@/lib/http/request-id";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// POST /api/card-provider-sandbox/v1/payment_intents/:intentId/confirm (the sandbox card provider, not the gateway)
export async function POST(request: Request, context: { params: Promise<{ intentId: string }> }) {
  if (!getConfig().isSandbox) return unknownAtProvider(request);
  return simulatorMount().card.handleConfirm(request, (await context.params).intentId);
}

// A production gateway hosts no card simulator (nor loads its code): the path is unknown, in the provider's own words.
function unknownAtProvider(request: Request): Response {
  const body = { error: { type: "invalid_request_error", code: "resource_missing", message: "Unrecognized request URL." } };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-request-id": requestIdFor(request) },
  });
}
