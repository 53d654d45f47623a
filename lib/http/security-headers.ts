export interface ContentSecurityPolicyOptions {
  /** Fresh per request; Next.js reads it back from the request's CSP header and stamps its scripts. */
  nonce: string;
  /** `next dev` evaluates code for its overlay; production never does. */
  development?: boolean;
  /** Only over https: on plain-http localhost the upgrade would break every asset. */
  upgradeInsecureRequests?: boolean;
  /** `'sha256-…'` sources of the stylesheets the build inlines into the page (they carry no nonce). */
  inlineStyles?: readonly string[];
  /** The card page in production: the hosts Stripe.js needs (stripeJsSources). */
  thirdParty?: ThirdPartySources;
  /** The page before a redirect provider's: the providers' page origins its Pay form's 303 may reach. */
  formActions?: readonly string[];
}

export interface ThirdPartySources {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
}

/**
 * Exactly the hosts Stripe's security guide lists for Stripe.js
 * (https://docs.stripe.com/security/guide#content-security-policy), less
 * https://maps.googleapis.com, which only the Address Element's autocomplete needs: the script
 * and its iframes from js.stripe.com and its subdomains, 3DS and redirects on hooks.stripe.com,
 * its API on api.stripe.com. Only the production card page gets them; the sandbox's stand-in
 * is served by the gateway itself ('self').
 */
export const stripeJsSources: ThirdPartySources = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

/**
 * The page before a redirect provider's (/{locale}/pay/redirect/{paymentId}), whose Pay form is
 * answered with a 303 to the provider's page.
 */
export function isRedirectPagePath(pathname: string): boolean {
  return /^\/[a-z]{2}\/pay\/redirect\/[^/]+\/?$/.test(pathname);
}

/** The hosted card page (/{locale}/pay/card/{paymentId}), the one page that runs a card provider's script. */
export function isCardPagePath(pathname: string): boolean {
  return /^\/[a-z]{2}\/pay\/card\/[^/]+\/?$/.test(pathname);
}

/**
 * A strict policy for every hosted page: scripts only with this request's nonce (and what
 * they load, via 'strict-dynamic'), nothing from other origins, never framed, forms only
 * posted back to us.
 */
export function contentSecurityPolicy({
  nonce,
  development = false,
  upgradeInsecureRequests = false,
  inlineStyles = [],
  thirdParty,
  formActions,
}: ContentSecurityPolicyOptions): string {
  const extra = (hosts: readonly string[] | undefined) => (hosts?.length ? ` ${hosts.join(" ")}` : "");
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${extra(thirdParty?.script)}` +
      (development ? " 'unsafe-eval'" : ""),
    ["style-src 'self'", `'nonce-${nonce}'`, ...inlineStyles].join(" "),
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${extra(thirdParty?.connect)}`,
    ...(thirdParty ? [`frame-src${extra(thirdParty.frame)}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${extra(formActions)}`,
    "frame-ancestors 'none'",
    ...(upgradeInsecureRequests ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** A nonce of 16 random bytes, base64: unguessable and fresh for each response. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** Headers every hosted page answers with, beside its CSP. */
export const hostedPageHeaders: Readonly<Record<string, string>> = {
  // payUrl carries the page token: never hand it to the merchant or anyone else in Referer.
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  // For browsers that predate frame-ancestors.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** Pages that carry a token, and the redirects that lead to them, are never stored by any cache. */
export const noStore = "private, no-store, max-age=0";

/** Two years, subdomains included: sent only when the gateway's public address is https. */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

/** What every API response carries: JSON and PNG are never sniffed as HTML, never framed. */
export const apiHeaders: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
};
