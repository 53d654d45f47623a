import { logger } from "../log";
import { isOriginAllowed } from "../urls/allowed-origins";
import { parseHttpUrl, returnAllowList } from "../merchants/trusted-return-url";
import { checkStatusCode } from "../payments/core/payment-state";

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
  return explainReturnTarget(options).target;
}

/** A returnUrl or redirectUrl the merchant gave that was not used, and the origin it had. */
export interface IgnoredReturnUrl {
  field: "returnUrl" | "redirectUrl";
  /** The URL's origin, or null when it is not an absolute http(s) URL without credentials. */
  origin: string | null;
}

/**
 * resolveReturnTarget, plus which merchant-given URL was ignored (so the sandbox page can say
 * why and the log records it): a URL is ignored when it is not an absolute http(s) URL, or
 * its origin is neither the service's redirect URL origin nor on the allow-list.
 */
export function explainReturnTarget(options: ReturnTargetOptions): {
  target: string | null;
  ignored: IgnoredReturnUrl | null;
} {
  const allowList = returnAllowList(options);
  const serviceTarget = parseHttpUrl(options.serviceRedirectUrl);

  const given = (["returnUrl", "redirectUrl"] as const).filter((field) => options[field]);
  const trusted = given.map((field) => ({ field, url: parseHttpUrl(options[field]) }));
  const merchantTarget = trusted.find(({ url }) => url !== null && isOriginAllowed(url.origin, allowList))?.url;
  const skipped = merchantTarget ? undefined : trusted[0];
  const ignored = skipped ? { field: skipped.field, origin: skipped.url?.origin ?? null } : null;
  const target = merchantTarget ?? serviceTarget;
  if (!target) return { target: null, ignored };

  target.searchParams.set("paymentId", options.paymentId);
  target.searchParams.set("statusCode", String(options.statusCode));
  return { target: target.toString(), ignored };
}

/** Logs an ignored returnUrl or redirectUrl (its origin only: the rest is the merchant's business). */
export function logIgnoredReturnUrl(paymentId: string, ignored: IgnoredReturnUrl): void {
  logger.warn(
    { paymentId, field: ignored.field, origin: ignored.origin },
    ignored.origin
      ? `${ignored.field} ignored: its origin is neither the service's redirect URL origin nor allow-listed`
      : `${ignored.field} ignored: not an absolute http(s) URL`,
  );
}

/**
 * An intent past its lifetime that the sweep has not failed yet (contract 4): the merchant is
 * told the failed code, which Check confirms once the sweep has run.
 */
export function expiredReturnTarget(options: Omit<ReturnTargetOptions, "statusCode">): string | null {
  return resolveReturnTarget({ ...options, statusCode: checkStatusCode("FAILED") });
}
