import QRCode from "qrcode";

// A QR code's PNG, for the wallet's payment codes (lib/payment-methods/wallet/hosted/render-qr-image.ts)
// and the payment links' (lib/hosted/payment-link-qr.ts): below both, it imports nothing of the gateway.

/**
 * Error correction M survives a smudged or partly glared screen; the 4-module quiet zone is
 * what scanners expect; 480 px stays sharp at twice the 240 CSS px the QR page shows.
 */
const PNG_OPTIONS = { type: "png", errorCorrectionLevel: "M", margin: 4, width: 480 } as const;

// Encoding the PNG is the cost (about 40 ms for 480 px, against 2 ms for the matrix), and a
// payment's code never changes: the last few hundred images are kept, about 5 KB each.
const RENDERED_KEPT = 256;
const rendered = new Map<string, Promise<Buffer>>();

/** The PNG of a QR code holding `content`; the same content always gives the same bytes. */
export function qrPng(content: string): Promise<Buffer> {
  const kept = rendered.get(content);
  if (kept) {
    // Most recently used last, so the oldest is the one dropped.
    rendered.delete(content);
    rendered.set(content, kept);
    return kept;
  }
  const png = QRCode.toBuffer(content, PNG_OPTIONS);
  rendered.set(content, png);
  png.catch(() => rendered.delete(content));
  if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  return png;
}
