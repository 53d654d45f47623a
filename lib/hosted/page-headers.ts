import { getConfig } from "../config";
import { providerPageOrigins } from "../payment-methods/declarations/method-declarations";
import {
  contentSecurityPolicy,
  hostedPageHeaders,
  isCardPagePath,
  isRedirectPagePath,
  noStore,
  strictTransportSecurity,
  stripeJsSources,
} from "../http/security-headers";
import { PLAIN_PAGE_STYLE_HASH } from "./form-response";
import { inlineStyleHashes } from "./inline-style-hashes";

/**
 * The policy of a page's answer, with this response's nonce: what proxy.ts gives every page under
 * Next.js and the console lane (lib/console/web/console-lane.ts) gives the pages it serves.
 */
export function pageContentSecurityPolicy(pathname: string, nonce: string, overHttps: boolean): string {
  return contentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV === "development",
    upgradeInsecureRequests: overHttps,
    inlineStyles: [...inlineStyleHashes(), PLAIN_PAGE_STYLE_HASH],
    // Production's card page runs Stripe.js; the sandbox's stand-in comes from the gateway itself.
    thirdParty: !getConfig().isSandbox && isCardPagePath(pathname) ? stripeJsSources : undefined,
    // Browsers apply form-action to a form's redirects: Pay's 303 to the provider's page must be allowed.
    // From the methods' declarations, which load no payment code: the proxy runs this too.
    formActions: isRedirectPagePath(pathname) ? providerPageOrigins(getConfig()) : undefined,
  });
}

/**
 * Every page answer's own headers beside its CSP: the hosted pages' set, no caching, its request
 * id, HSTS over https.
 */
export function pageAnswerHeaders(csp: string, requestId: string): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    ...hostedPageHeaders,
    "Cache-Control": noStore,
    "x-request-id": requestId,
    ...(getConfig().sendsHsts ? { "Strict-Transport-Security": strictTransportSecurity } : {}),
  };
}
