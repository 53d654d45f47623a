import type { Locale } from "../i18n/routing";

export interface HostedLinkOptions {
  locale: Locale;
  paymentId: string;
  token: string;
  /** The merchant's returnUrl, carried from page to page untouched; checked only where it is used. */
  returnUrl?: string | null;
}

function withQuery(path: string, { token, returnUrl }: HostedLinkOptions): string {
  const query = new URLSearchParams({ token });
  if (returnUrl) query.set("returnUrl", returnUrl);
  return `${path}?${query.toString()}`;
}

export function otpPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}/pay/otp/${encodeURIComponent(options.paymentId)}`, options);
}

export function qrPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}/pay/qr/${encodeURIComponent(options.paymentId)}`, options);
}

export function returnPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}/pay/return/${encodeURIComponent(options.paymentId)}`, options);
}
