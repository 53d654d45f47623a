import { constantTimeEqual, hmacHex } from "../crypto/secrets";

/** The hosted forms; each token is good for one form kind only. */
export type HostedFormKind = "otp" | "challenge" | "wallet" | "checkout" | "payment_link" | "receipt" | "redirect";

/**
 * The per-page CSRF token of a hosted form: an HMAC of the page's own credential (page
 * token, 3DS client secret, wallet-app token) under the gateway key. It is rendered into the
 * page and must come back with the post; a page elsewhere never sees it. It does not rely on
 * the Origin header, which Chromium sends as `null` for our pages (Referrer-Policy: no-referrer).
 */
export function formTokenFor(gatewayKey: Buffer, form: HostedFormKind, pageCredential: string): string {
  return hmacHex(gatewayKey, `hosted-form:${form}`, pageCredential);
}

export function isValidFormToken(
  gatewayKey: Buffer,
  form: HostedFormKind,
  pageCredential: string,
  formToken: unknown,
): boolean {
  return typeof formToken === "string" && constantTimeEqual(formToken, formTokenFor(gatewayKey, form, pageCredential));
}

/**
 * A browser tells where a post came from in Sec-Fetch-Site (it cannot be set by a page).
 * A post from another site is refused outright; an absent header (an old browser, a script)
 * leaves the decision to the form token.
 */
export function isCrossSitePost(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

// The addresses hosted forms post to; every other page answers a POST with the 400 page.
const FORM_PATHS = [
  String.raw`pay\/otp\/[^/]+\/(confirm|resend)`,
  String.raw`pay\/checkout\/[^/]+\/continue`,
  String.raw`pay\/return\/[^/]+\/receipt\/email`,
  String.raw`pay\/redirect\/[^/]+\/go`,
  String.raw`l\/[^/]+\/pay`,
  String.raw`card-provider-sandbox\/challenge\/[^/]+\/answer`,
  String.raw`sandbox\/wallet\/[^/]+\/answer`,
];
const FORM_PATH = new RegExp(String.raw`^\/[a-z]{2}\/(${FORM_PATHS.join("|")})$`);

export function isHostedFormPath(pathname: string): boolean {
  return FORM_PATH.test(pathname);
}

// The console's forms all post to one address per action (lib/console/web/actions/console-actions.ts).
const CONSOLE_ACTION_PATH = /^\/[a-z]{2}\/console\/actions\/[a-z-]+$/;

// Where a redirect provider sends the buyer back: CMI posts its fields to okUrl / failUrl. The
// route reads only the page token in its query and asks the provider, so a post there is a return like any other.
const PROVIDER_RETURN_PATH = /^\/[a-z]{2}\/pay\/redirect\/[^/]+\/return$/;

/**
 * Outside the API (where the demo merchant's webhook receiver lives too), only the hosted forms,
 * the console's actions and the providers' returns take a POST.
 */
export function acceptsPost(pathname: string): boolean {
  return isHostedFormPath(pathname) || CONSOLE_ACTION_PATH.test(pathname) || PROVIDER_RETURN_PATH.test(pathname);
}
