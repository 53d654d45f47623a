import QRCode from "qrcode";
import { isValidPageToken } from "../../auth/client-secret";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { walletProvider } from "../../providers/wallet/wallet-provider";
import { HOSTED_PAGE } from "../pay-url";
import { isPaymentId } from "../payment-record";

/**
 * Error correction M survives a smudged or partly glared screen; the 4-module quiet zone is
 * what scanners expect; 480 px stays sharp at twice the 240 CSS px the QR page shows.
 */
const PNG_OPTIONS = { type: "png", errorCorrectionLevel: "M", margin: 4, width: 480 } as const;

/** The PNG of a QR code holding `content`; the same content always gives the same bytes. */
export function qrPng(content: string): Promise<Buffer> {
  return QRCode.toBuffer(content, PNG_OPTIONS);
}

/**
 * GET /api/v1/qr/:id/image: the payment's QR code, for whoever holds its hosted page token
 * (the qrImageUrl of the proceed result). Null for a wrong token, an unknown payment, and a
 * payment the wallet holds no QR request for alike.
 */
export async function renderQrImage(db: Db, options: { paymentId: string; token: string }): Promise<Buffer | null> {
  const { paymentId, token } = options;
  if (!isPaymentId(paymentId) || !isValidPageToken(await getGatewayKey(db), HOSTED_PAGE, paymentId, token)) return null;
  const content = await walletProvider().qrContent(db, { paymentId });
  return content === null ? null : qrPng(content);
}
