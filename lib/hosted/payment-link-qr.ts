import { getDb } from "../db/client";
import { noStore } from "../http/security-headers";
import { paymentLinkExists } from "../payment-links/payment-link-record";
import { isPaymentLinkId } from "../payment-links/payment-link.schema";
import { qrPng } from "../qr-code/qr-png";
import { paymentLinkUrl } from "../urls/payment-link-urls";

/** GET /l/{id}/qr.png: the link's `qrImageUrl`, a PNG QR code of its `url`; 404 for no such link. */
export async function paymentLinkQrResponse(linkId: string): Promise<Response> {
  if (!isPaymentLinkId(linkId) || !(await paymentLinkExists(await getDb(), linkId))) {
    return new Response("No such payment link.", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": noStore },
    });
  }
  const png = await qrPng(paymentLinkUrl(linkId));
  return new Response(new Uint8Array(png), {
    headers: {
      "content-type": "image/png",
      "content-length": String(png.length),
      // The code never changes, but a deactivated link's image should not outlive it in caches for long.
      "cache-control": "public, max-age=3600",
      "content-disposition": `inline; filename="${linkId}.png"`,
      "x-content-type-options": "nosniff",
    },
  });
}
