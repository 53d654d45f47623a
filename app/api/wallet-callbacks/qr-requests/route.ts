import { getDb } from "@/lib/db/client";
import { handleQrCallback } from "@/lib/payment-methods/registry/method-entry-points";

// POST /api/wallet-callbacks/qr-requests: the wallet service's signed qrRequestAnswered
// (docs/wallet-protocol.openapi.yaml), in production and the sandbox alike.
export async function POST(request: Request) {
  return handleQrCallback(await getDb(), request);
}
