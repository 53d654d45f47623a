import { getConfig } from "@/lib/config";
import { withRequestScope } from "@/lib/http/request-scope";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// POST /api/card-provider-sandbox/v1/payment_intents/:intentId/confirm (the sandbox card provider, not the gateway)
export async function POST(request: Request, context: { params: Promise<{ intentId: string }> }) {
  if (!getConfig().isSandbox) return withRequestScope(request, async ({ requestId }) => unknownAtProvider(requestId));
  return simulatorMount().card.handleConfirm(request, (await context.params).intentId);
}

// A production gateway hosts no card simulator (nor loads its code): the path is unknown, in the
// provider's own words, with every API answer's headers and access line (the request scope).
function unknownAtProvider(requestId: string): Response {
  const body = {
    error: { type: "invalid_request_error", code: "resource_missing", message: "Unrecognized request URL." },
  };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestId,
    },
  });
}
