import { paymentLinkEntryResponse } from "@/lib/hosted/payment-link-entry";

/** GET /l/{id}: a payment link's shared url; on to its page in the buyer's language, or 410 when closed. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return paymentLinkEntryResponse(request, (await context.params).id);
}
