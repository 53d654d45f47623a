import { getConfig } from "../config";
import { hostedPageToken, hostedPayUrl, type PageLocale } from "./pay-url";

/**
 * metadata.qrImageUrl: the QR code as a PNG the gateway renders, under the payment's hosted
 * page token, so a merchant can show it on its own page or app without credentials.
 */
export function qrImageUrl(options: { gatewayKey: Buffer; paymentId: string }): string {
  const token = hostedPageToken(options.gatewayKey, options.paymentId);
  return `${getConfig().publicBaseUrl}/api/v1/qr/${options.paymentId}/image?token=${token}`;
}

/** metadata.qrPageUrl: the hosted QR page, with the locale rule of every payUrl (contract 10). */
export function qrPageUrl(options: { gatewayKey: Buffer; paymentId: string; locale: PageLocale | null }): string {
  return hostedPayUrl({ ...options, page: "qr" });
}
