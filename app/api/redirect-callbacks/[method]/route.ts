import { getDb } from "@/lib/db/client";
import { noStore } from "@/lib/http/security-headers";
import { isPaymentMethodCode } from "@/lib/payment-methods/codes/payment-method-codes";
import { PAYMENT_METHODS } from "@/lib/payment-methods/registry/payment-method-registry";

/**
 * POST /api/redirect-callbacks/{method}: a redirect provider's server-to-server notification
 * (CMI's callbackUrl: /api/redirect-callbacks/cmi), verified and answered by the provider's own
 * folder (RedirectProvider.receiveCallback). A method without one is not found.
 */
export async function POST(request: Request, context: { params: Promise<{ method: string }> }) {
  const code = (await context.params).method.toUpperCase();
  const receive = isPaymentMethodCode(code) ? PAYMENT_METHODS[code].redirect?.receiveCallback : undefined;
  if (!receive) return new Response("Not found", { status: 404, headers: { "cache-control": noStore } });
  return receive(await getDb(), request);
}
