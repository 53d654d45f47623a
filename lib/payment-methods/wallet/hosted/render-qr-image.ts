import type { Db } from "../../../db/client";
import { qrContentOf } from "../wallet-qr";
import { qrPng } from "../../../qr-code/qr-png";
import { hasHostedToken } from "../../../payments/core/hosted-access";

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
