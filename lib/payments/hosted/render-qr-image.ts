import QRCode from "qrcode";
import type { Db } from "../../db/client";
import { qrContentOf } from "../core/wallet-qr";
import { hasHostedToken } from "./hosted-access";

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

/**
 * GET /api/v1/qr/:id/image: the payment's QR code, for whoever holds its hosted page token
 * (the qrImageUrl of the proceed result). Null for a wrong token, an unknown payment, and a
 * payment the wallet holds no QR request for alike.
 */
export async function renderQrImage(db: Db, options: { paymentId: string; token: string }): Promise<Buffer | null> {
  const { paymentId, token } = options;
  if (!(await hasHostedToken(db, paymentId, token))) return null;
  // What the wallet said the code encodes when it opened the request (kept with the charge: no wallet call per image).
  const content = await qrContentOf(db, paymentId);
  return content === null ? null : qrPng(content);
}
