import { getConfig } from "../config";
import { contentSecurityPolicy, hostedPageHeaders, isCardPagePath, isRedirectPagePath, noStore, strictTransportSecurity, stripeJsSources } from "../http/security-headers";
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
    formActions: isRedirectPagePath(pathname) ? redirectProviderPageOrigins() : undefined,
  });
}

/**
 * Where the redirect providers' payment pages are (contract 15): SATIM's and ClicToPay's beside
 * their REST bases, Chargily's checkout on pay.chargily.net in both modes (or beside
 * CHARGILY_API_URL: its simulator process). Read from the configuration alone, so the proxy
 * loads no payment code: this mirrors what each provider declares (RedirectProvider.page.origins),
 * which the proxy cannot reach without loading the registry and every method with it. A sandbox's
 * in-gateway simulators are 'self'.
 */
function redirectProviderPageOrigins(): string[] {
  const config = getConfig();
  // CMI's is where its form posts (its gate under CMI_URL); the others answer Pay with a 303 to their page.
  const configured = [config.SATIM_API_URL, config.CLICTOPAY_API_URL, config.CHARGILY_API_URL, config.CMI_URL].filter((url): url is string => Boolean(url));
  const origins = configured.map((url) => new URL(url).origin);
  if (!config.isSandbox) origins.push("https://pay.chargily.net");
  return [...new Set(origins)];
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
