import { paymentLinkClosedResponse } from "@/lib/hosted/payment-link-entry";

/** GET /{locale}/l/{id}/closed: 410, the link no longer takes payments. */
export async function GET(
  request: Request,
  context: { params: Promise<{ locale: string; id: string }> },
): Promise<Response> {
  const { locale, id } = await context.params;
  return paymentLinkClosedResponse(request, locale, id);
}
