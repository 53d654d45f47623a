import { pageTokenFor } from "../auth/client-secret";
import { getConfig } from "../config";

export type PageLocale = "en" | "fr" | "ar";

/** The hosted pages' language from a proceed's x-locale: fr_FR -> fr, ar_DZ -> ar, anything else -> en. */
export function pageLocaleOf(xLocale: string | null | undefined): PageLocale | null {
  if (!xLocale) return null;
  const language = xLocale.trim().toLowerCase().split(/[_-]/)[0];
  if (language === "fr") return "fr";
  if (language === "ar") return "ar";
  return "en";
}

/** The page-token kind every hosted payment page of a payment shares. */
export const HOSTED_PAGE = "hosted";

export function hostedPageToken(gatewayKey: Buffer, paymentId: string): string {
  return pageTokenFor(gatewayKey, HOSTED_PAGE, paymentId);
}

/**
 * `${publicBaseUrl}[/${locale}]/pay/${page}/${paymentId}?token=...`: the locale segment only
 * when the merchant sent x-locale, so otherwise the page follows the buyer's browser.
 */
export function hostedPayUrl(options: {
  gatewayKey: Buffer;
  page: "otp" | "card" | "qr";
  paymentId: string;
  locale: PageLocale | null;
}): string {
  const localePart = options.locale ? `/${options.locale}` : "";
  const token = hostedPageToken(options.gatewayKey, options.paymentId);
  return `${getConfig().publicBaseUrl}${localePart}/pay/${options.page}/${options.paymentId}?token=${token}`;
}
