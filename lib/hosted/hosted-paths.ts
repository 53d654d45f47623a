import type { Locale } from "../i18n/routing";

export interface HostedLinkOptions {
  locale: Locale;
  paymentId: string;
  token: string;
  /** The merchant's returnUrl, carried from page to page untouched; checked only where it is used. */
  returnUrl?: string | null;
}

function withQuery(path: string, { token, returnUrl }: HostedLinkOptions, notice?: string): string {
  const query = new URLSearchParams({ token });
  if (returnUrl) query.set("returnUrl", returnUrl);
  if (notice) query.set("notice", notice);
  return `${path}?${query.toString()}`;
}

/** What the OTP page says after one of its forms was posted (the 303 carries it in the query). */
export const OTP_NOTICES = ["wrong_code", "code_format", "code_expired", "sent", "too_soon", "error"] as const;
export type OtpNotice = (typeof OTP_NOTICES)[number];

export function otpPagePath(options: HostedLinkOptions & { notice?: OtpNotice }): string {
  return withQuery(`/${options.locale}/pay/otp/${encodeURIComponent(options.paymentId)}`, options, options.notice);
}

/** Where the OTP page's forms post: `confirm` checks a code, `resend` asks for a new one. */
export function otpFormPath(options: { locale: Locale; paymentId: string }, form: "confirm" | "resend"): string {
  return `/${options.locale}/pay/otp/${encodeURIComponent(options.paymentId)}/${form}`;
}

export function qrPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}/pay/qr/${encodeURIComponent(options.paymentId)}`, options);
}

export function returnPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}/pay/return/${encodeURIComponent(options.paymentId)}`, options);
}
