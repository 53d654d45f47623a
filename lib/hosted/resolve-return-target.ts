import { checkStatusCode } from "../payments/payment-state";

export interface ReturnTargetOptions {
  paymentId: string;
  statusCode: number;
  /** OTP flow: appended to payUrl by the merchant; untrusted, it came in through the buyer's URL. */
  returnUrl?: string | null;
  /** Card flow: given in the proceed body. */
  redirectUrl?: string | null;
  /** The service's redirect URL from onboarding: trusted, and its origin is allowed. */
  serviceRedirectUrl?: string | null;
  /** The service's allow-listed origins (`https://shop.example`). */
  allowedOrigins: readonly string[];
}

/**
 * Where the return page sends the buyer (contract 8): the merchant's returnUrl or redirectUrl
 * when its origin is the service's redirect URL origin or allow-listed, else the service's
 * redirect URL, else nowhere (the page stays). paymentId and statusCode are always set, so a
 * merchant-supplied value of either can never be passed on as ours.
 */
export function resolveReturnTarget(options: ReturnTargetOptions): string | null {
  const trustedOrigins = new Set(options.allowedOrigins.map(originOf).filter((origin) => origin !== null));
  const serviceTarget = parseHttpUrl(options.serviceRedirectUrl);
  if (serviceTarget) trustedOrigins.add(serviceTarget.origin);

  const merchantTarget = [options.returnUrl, options.redirectUrl]
    .map(parseHttpUrl)
    .find((url) => url !== null && trustedOrigins.has(url.origin));
  const target = merchantTarget ?? serviceTarget;
  if (!target) return null;

  target.searchParams.set("paymentId", options.paymentId);
  target.searchParams.set("statusCode", String(options.statusCode));
  return target.toString();
}

function parseHttpUrl(value: string | null | undefined): URL | null {
  if (!value) return null;
  // URL.canParse keeps a malformed value from throwing; only absolute http(s) URLs qualify,
  // so `javascript:`, `data:` and protocol-relative tricks never become a target.
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  // Credentials in a redirect target only serve phishing (`https://bank.example@evil.example`).
  if (url.username || url.password) return null;
  return url;
}

function originOf(value: string): string | null {
  return parseHttpUrl(value)?.origin ?? null;
}

/**
 * An intent past its lifetime that the sweep has not failed yet (contract 4): the merchant is
 * told the failed code, which Check confirms once the sweep has run.
 */
export function expiredReturnTarget(options: Omit<ReturnTargetOptions, "statusCode">): string | null {
  return resolveReturnTarget({ ...options, statusCode: checkStatusCode("FAILED") });
}
