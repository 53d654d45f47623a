import { getConfig } from "../config";
import { contentSecurityPolicy, hostedPageHeaders, isCardPagePath, isRedirectPagePath, noStore, strictTransportSecurity, stripeJsSources } from "../http/security-headers";
import { PLAIN_PAGE_STYLE_HASH } from "./form-response";
import { inlineStyleHashes } from "./inline-style-hashes";

/**
 * The policy of a page's answer, with this response's nonce: what proxy.ts gives every page under
 * Next.js and the console lane (lib/console-web/console-lane.ts) gives the pages it serves.
 */
export function pageContentSecurityPolicy(pathname: string, nonce: string, overHttps: boolean): string {
  return contentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV === "development",
    upgradeInsecureRequests: overHttps,
    inlineStyles: [...inlineStyleHashes(), PLAIN_PAGE_STYLE_HASH],
    // Production's card page runs Stripe.js; the sandbox's stand-in comes from the gateway itself.
    thirdParty: !getConfig().isSandbox && isCardPagePath(pathname) ? stripeJsSources : undefined,
    // The page before CMI's posts its signed form to CMI's gate (CMI_URL); the sandbox's simulator is 'self'.
    formTargets: getConfig().CMI_URL && isRedirectPagePath(pathname) ? [new URL(getConfig().CMI_URL!).origin] : undefined,
  });
}

/** Every page answer's own headers beside its CSP: the hosted pages' set, no caching, its request id, HSTS over https. */
export function pageAnswerHeaders(csp: string, requestId: string): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    ...hostedPageHeaders,
    "Cache-Control": noStore,
    "x-request-id": requestId,
    ...(getConfig().sendsHsts ? { "Strict-Transport-Security": strictTransportSecurity } : {}),
  };
}
