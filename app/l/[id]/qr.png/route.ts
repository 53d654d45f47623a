import { paymentLinkQrResponse } from "@/lib/hosted/payment-link-qr";

/** GET /l/{id}/qr.png: the link's QR code (qrImageUrl). */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return paymentLinkQrResponse((await context.params).id);
}
