import { pageTokenFor } from "../../auth/client-secret";
import type { Locale } from "../../i18n/routing";
import { checkoutUrl, hostedPayUrl as hostedPayUrlWithToken, type HostedPayPage } from "../../urls/hosted-urls";

export type PageLocale = Locale;

/** The page-token kind every hosted payment page of a payment shares. */
export const HOSTED_PAGE = "hosted";

export function hostedPageToken(gatewayKey: Buffer, paymentId: string): string {
  return pageTokenFor(gatewayKey, HOSTED_PAGE, paymentId);
}

/** A hosted page's payUrl under the payment's hosted page token (the shape: lib/urls/hosted-urls). */
export function hostedPayUrl(options: {
  gatewayKey: Buffer;
  page: HostedPayPage;
  paymentId: string;
  locale: PageLocale | null;
}): string {
  const { gatewayKey, ...link } = options;
  return hostedPayUrlWithToken({ ...link, token: hostedPageToken(gatewayKey, options.paymentId) });
}

/** Create intent's checkoutUrl, under the payment's hosted page token (contract 14). */
export function hostedCheckoutUrl(gatewayKey: Buffer, paymentId: string): string {
  return checkoutUrl({ paymentId, token: hostedPageToken(gatewayKey, paymentId) });
}
