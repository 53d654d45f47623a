import { anyPortEntry, isOriginAllowed } from "../urls/allowed-origins";

/** Where a service allows the buyer to be sent back to (contract 8). */
export interface ReturnUrlPolicy {
  /** The service's redirect URL from onboarding: trusted, and its origin is allowed. */
  serviceRedirectUrl?: string | null;
  /** The service's allow-listed origins (`https://shop.example`, or `scheme://host:*`). */
  allowedOrigins: readonly string[];
}

/**
 * An absolute http(s) URL without credentials, else null. URL.canParse keeps a malformed value
 * from throwing; `javascript:`, `data:` and protocol-relative tricks never qualify, and
 * credentials in a redirect target only serve phishing (`https://bank.example@evil.example`).
 */
export function parseHttpUrl(value: string | null | undefined): URL | null {
  if (!value) return null;
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  return url;
}

/** The origins a merchant-given return URL may have: the allow-list plus the redirect URL's origin. */
export function returnAllowList(policy: ReturnUrlPolicy): string[] {
  const allowList = policy.allowedOrigins
    .map((entry) => anyPortEntry(entry) ?? parseHttpUrl(entry)?.origin ?? null)
    .filter((entry) => entry !== null);
  const serviceTarget = parseHttpUrl(policy.serviceRedirectUrl);
  if (serviceTarget) allowList.push(serviceTarget.origin);
  return allowList;
}

/** The one rule for a merchant-given returnUrl or redirectUrl: used only when its origin is allowed. */
export function isTrustedReturnUrl(value: string | null | undefined, policy: ReturnUrlPolicy): boolean {
  const url = parseHttpUrl(value);
  return url !== null && isOriginAllowed(url.origin, returnAllowList(policy));
}
