import { getConfig } from "../config";
import { isLocale } from "../i18n/locales";
import type { Locale } from "../i18n/routing";

// Every hosted URL shape (pages, their forms, the QR page's API links, the sandbox wallet app and
// 3DS pages) in one module, so a path changes in one place: relative paths for the pages' own
// links, absolute URLs (on PUBLIC_BASE_URL) for what leaves the gateway (payUrl, QR metadata, the
// QR code's content). A leaf on the foundation only, so every layer may build its links here.

/** An address on this gateway as the outside world reaches it. */
function absoluteUrl(path: string): string {
  return `${getConfig().publicBaseUrl}${path}`;
}

/** The locale segment: none lets the page follow the browser's language. */
function localePrefix(locale: Locale | null): string {
  return locale ? `/${locale}` : "";
}

/** Every hosted page, by what it is. */
export type HostedPage = "checkout" | "otp" | "card" | "redirect" | "qr" | "return" | "wallet-app" | "challenge";

const PAGE_PREFIXES: Record<HostedPage, string> = {
  checkout: "/pay/checkout",
  otp: "/pay/otp",
  card: "/pay/card",
  redirect: "/pay/redirect",
  qr: "/pay/qr",
  return: "/pay/return",
  "wallet-app": "/sandbox/wallet",
  challenge: "/card-provider-sandbox/challenge",
};

/**
 * A hosted page's path without its locale segment (the language switcher puts each language
 * in front, and every other shape here builds on it).
 */
export function pagePathWithoutLocale(page: HostedPage, id: string): string {
  return `${PAGE_PREFIXES[page]}/${encodeURIComponent(id)}`;
}

export interface HostedLinkOptions {
  locale: Locale;
  paymentId: string;
  token: string;
  /** The merchant's returnUrl, carried from page to page untouched; checked only where it is used. */
  returnUrl?: string | null;
}

function withQuery(
  path: string,
  { token, returnUrl }: { token: string; returnUrl?: string | null },
  notice?: string,
): string {
  const query = new URLSearchParams({ token });
  if (returnUrl) query.set("returnUrl", returnUrl);
  if (notice) query.set("notice", notice);
  return `${path}?${query.toString()}`;
}

/** What the OTP page says after one of its forms was posted (the 303 carries it in the query). */
export const OTP_NOTICES = ["wrong_code", "code_format", "code_expired", "sent", "too_soon", "error"] as const;
export type OtpNotice = (typeof OTP_NOTICES)[number];

export function otpPagePath(options: HostedLinkOptions & { notice?: OtpNotice }): string {
  return withQuery(`/${options.locale}${pagePathWithoutLocale("otp", options.paymentId)}`, options, options.notice);
}

/** Where the OTP page's forms post: `confirm` checks a code, `resend` asks for a new one. */
export function otpFormPath(options: { locale: Locale; paymentId: string }, form: "confirm" | "resend"): string {
  return `/${options.locale}${pagePathWithoutLocale("otp", options.paymentId)}/${form}`;
}

/** What the checkout page says after its form was posted (the 303 carries it in the query). */
export const CHECKOUT_NOTICES = ["choose_method", "method_unavailable", "error", "provider_unavailable"] as const;
export type CheckoutNotice = (typeof CHECKOUT_NOTICES)[number];

export function checkoutPagePath(options: HostedLinkOptions & { notice?: CheckoutNotice }): string {
  return withQuery(
    `/${options.locale}${pagePathWithoutLocale("checkout", options.paymentId)}`,
    options,
    options.notice,
  );
}

/** Where the checkout page's form posts the buyer's choice of method. */
export function checkoutFormPath(options: { locale: Locale; paymentId: string }): string {
  return `/${options.locale}${pagePathWithoutLocale("checkout", options.paymentId)}/continue`;
}

/**
 * Create intent's `checkoutUrl`: the hosted page where the buyer chooses how to pay, under the
 * payment's hosted page token. No locale segment: the page follows the buyer's browser.
 */
export function checkoutUrl(options: { paymentId: string; token: string }): string {
  return absoluteUrl(withQuery(pagePathWithoutLocale("checkout", options.paymentId), { token: options.token }));
}

export function qrPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}${pagePathWithoutLocale("qr", options.paymentId)}`, options);
}

export function returnPagePath(options: HostedLinkOptions): string {
  return withQuery(`/${options.locale}${pagePathWithoutLocale("return", options.paymentId)}`, options);
}

/** What the return page says after its "Send receipt" form was posted (the 303 carries it in the query). */
export const RECEIPT_NOTICES = ["receipt_sent", "receipt_email_invalid", "receipt_too_many", "receipt_failed"] as const;
export type ReceiptNotice = (typeof RECEIPT_NOTICES)[number];

/** Back to the return page after a receipt form, staying (no timed move), scrolled to the receipt. */
export function returnPagePathAfterReceipt(options: HostedLinkOptions & { notice: ReceiptNotice }): string {
  const path = withQuery(
    `/${options.locale}${pagePathWithoutLocale("return", options.paymentId)}`,
    options,
    options.notice,
  );
  return `${path}&stay=1#receipt`;
}

/** The receipt as a PDF, under the return page's own token (`receipt`: its GET; `receipt/email`: the form's POST). */
export function receiptPdfPath(options: { locale: Locale; paymentId: string; token: string }): string {
  const query = new URLSearchParams({ token: options.token }).toString();
  return `/${options.locale}${pagePathWithoutLocale("return", options.paymentId)}/receipt?${query}`;
}

export function receiptEmailFormPath(options: { locale: Locale; paymentId: string }): string {
  return `/${options.locale}${pagePathWithoutLocale("return", options.paymentId)}/receipt/email`;
}

/** The hosted pages a merchant sends its buyer to (payUrl, metadata.qrPageUrl). */
export type HostedPayPage = "otp" | "card" | "redirect" | "qr";

/**
 * `${publicBaseUrl}[/${locale}]/pay/${page}/${paymentId}?token=...`: the locale segment only
 * when the merchant sent x-locale, so otherwise the page follows the buyer's browser.
 */
export function hostedPayUrl(options: {
  page: HostedPayPage;
  locale: Locale | null;
  paymentId: string;
  token: string;
}): string {
  const path = `${localePrefix(options.locale)}${pagePathWithoutLocale(options.page, options.paymentId)}`;
  return absoluteUrl(withQuery(path, { token: options.token }));
}

export interface CardLinkOptions {
  locale: Locale;
  paymentId: string;
  token: string;
}

export function cardPagePath({ locale, paymentId, token }: CardLinkOptions): string {
  return `/${locale}${pagePathWithoutLocale("card", paymentId)}?${new URLSearchParams({ token }).toString()}`;
}

/**
 * Where the buyer lands after the provider (directly, or from its 3DS page, which appends
 * `payment_intent`): the step that settles the payment and moves on to the return page.
 */
export function cardCompletePath({
  locale,
  paymentId,
  token,
  paymentIntentId,
}: CardLinkOptions & { paymentIntentId?: string }): string {
  const query = new URLSearchParams({ token });
  if (paymentIntentId) query.set("payment_intent", paymentIntentId);
  return `/${locale}${pagePathWithoutLocale("card", paymentId)}/complete?${query.toString()}`;
}

/** The provider's return_url: it sends the buyer back to the gateway's public address only. */
export function cardCompleteUrl(options: CardLinkOptions): string {
  return absoluteUrl(cardCompletePath(options));
}

/** The provider's return_url as it sends the buyer on: with the intent it answered (`payment_intent`). */
export function providerReturnWithIntent(returnUrl: string, paymentIntentId: string): string {
  const next = new URL(returnUrl);
  next.searchParams.set("payment_intent", paymentIntentId);
  return next.toString();
}

/** The page before a redirect method's provider (contract 15): the merchant, the amount, and Pay. */
export function redirectPagePath(options: HostedLinkOptions & { notice?: RedirectNotice }): string {
  return withQuery(
    `/${options.locale}${pagePathWithoutLocale("redirect", options.paymentId)}`,
    options,
    options.notice,
  );
}

/**
 * What the redirect page says after its form came back to it (the 303 carries it in the query).
 * The buyer's checks (SATIM): `terms_required` (box not ticked), `anti_bot_failed` /
 * `anti_bot_expired` (the anti-bot answer), `checks_failed` (both the box and the anti-bot answer).
 */
export const REDIRECT_NOTICES = [
  "provider_unavailable",
  "provider_refused",
  "checks_failed",
  "terms_required",
  "anti_bot_failed",
  "anti_bot_expired",
] as const;
export type RedirectNotice = (typeof REDIRECT_NOTICES)[number];

/** Where the redirect page's Pay posts: the order is registered with the provider, then the buyer goes there. */
export function redirectPayFormPath(options: { locale: Locale; paymentId: string }): string {
  return `/${options.locale}${pagePathWithoutLocale("redirect", options.paymentId)}/go`;
}

/**
 * Where the provider sends the buyer back, paid or not (SATIM's returnUrl and failUrl): the
 * gateway asks the provider there and reads nothing of what the provider appends.
 */
export function redirectReturnPath({
  locale,
  paymentId,
  token,
}: {
  locale: Locale;
  paymentId: string;
  token: string;
}): string {
  const query = new URLSearchParams({ token }).toString();
  return `/${locale}${pagePathWithoutLocale("redirect", paymentId)}/return?${query}`;
}

export function redirectReturnUrl(options: { locale: Locale; paymentId: string; token: string }): string {
  return absoluteUrl(redirectReturnPath(options));
}

/**
 * Where a redirect provider that notifies (Chargily's webhook_endpoint) posts a payment's outcome:
 * signed by the provider, never trusted otherwise.
 */
export const REDIRECT_NOTIFICATIONS_PATH = "/api/v1/redirect-notifications";

export function redirectNotifyUrl(paymentId: string): string {
  return absoluteUrl(`${REDIRECT_NOTIFICATIONS_PATH}/${encodeURIComponent(paymentId)}`);
}

export interface QrLinkOptions {
  paymentId: string;
  token: string;
}

/** The JSON the QR page polls (relative: the page and the API share the origin). */
export function qrStatusPath({ paymentId, token }: QrLinkOptions): string {
  return `/api/v1/qr/${encodeURIComponent(paymentId)}/status?${new URLSearchParams({ token }).toString()}`;
}

export function qrImagePath({ paymentId, token }: QrLinkOptions): string {
  return `/api/v1/qr/${encodeURIComponent(paymentId)}/image?${new URLSearchParams({ token }).toString()}`;
}

/** metadata.qrImageUrl: the QR code as a PNG, for a merchant to show on its own page or app. */
export function qrImageUrl(options: QrLinkOptions): string {
  return absoluteUrl(qrImagePath(options));
}

export function walletAppPath({ locale, paymentId, token }: QrLinkOptions & { locale: Locale | null }): string {
  const query = new URLSearchParams({ token }).toString();
  return `${localePrefix(locale)}${pagePathWithoutLocale("wallet-app", paymentId)}?${query}`;
}

/**
 * The sandbox wallet app's link for a payment, which the QR code encodes. No locale segment:
 * the page follows the language of the phone that scans it.
 */
export function walletAppUrl(options: QrLinkOptions): string {
  return absoluteUrl(walletAppPath({ ...options, locale: null }));
}

/** The sandbox 3DS page's address, with a notice when an answer was refused. */
export function challengePagePath(options: {
  locale: Locale | null;
  intentId: string;
  clientSecret: string;
  refused?: boolean;
}): string {
  const query = new URLSearchParams({ client_secret: options.clientSecret });
  if (options.refused) query.set("notice", "refused");
  return `${localePrefix(options.locale)}${pagePathWithoutLocale("challenge", options.intentId)}?${query.toString()}`;
}

/**
 * The sandbox provider's next_action link to its 3DS page (absolute): in the language the intent
 * was created with (the card page's), else without a locale so the page follows the browser's.
 */
export function challengePageUrl(options: { locale: string | null; intentId: string; clientSecret: string }): string {
  const locale = options.locale && isLocale(options.locale) ? options.locale : null;
  return absoluteUrl(challengePagePath({ locale, intentId: options.intentId, clientSecret: options.clientSecret }));
}

export function challengeFormPath(options: { locale: Locale; intentId: string }): string {
  return `/${options.locale}${pagePathWithoutLocale("challenge", options.intentId)}/answer`;
}

export function walletAppFormPath(options: { locale: Locale; paymentId: string }): string {
  return `/${options.locale}${pagePathWithoutLocale("wallet-app", options.paymentId)}/answer`;
}
