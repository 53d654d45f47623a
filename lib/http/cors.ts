import type { AuthMode } from "../auth/principal";

/*
 * Cross-origin calls from a merchant's web page (merchant_auth: the publishable key and the
 * intent's client secret, sent from the buyer's browser). The browser asks first (a preflight
 * OPTIONS, since the call carries Authorization) and then reads the answer only if it names the
 * page's origin. Any origin is answered, as `*`: the credentials are headers, never cookies, so
 * CORS guards nothing here; the service's Origin allow-list does (403 origin_not_allowed), and
 * the page can read that refusal too.
 *
 * Only routes that take merchant_auth answer browsers. client_auth and user_auth belong to the
 * merchant's server and the customer's app (interface, "Auth modes"): a page that carried a
 * client secret would leak it, so the browser refuses such a call before it is sent.
 */

/** Marks a route handler whose operation takes merchant_auth (endpoint()), so its route answers preflights. */
export const SERVES_BROWSERS = Symbol.for("gateway.servesBrowsers");

/** Whether an operation with these auth modes is called from browsers: merchant_auth is the browser's credential. */
export function servesBrowsers(modes: readonly AuthMode[] | undefined): boolean {
  return modes?.includes("merchant") ?? false;
}

/** The request headers a browser may send: every header the API reads. */
const ALLOWED_REQUEST_HEADERS = [
  "authorization",
  "content-type",
  "idempotency-key",
  "x-client-secret",
  "x-client-token",
  "x-country-code",
  "x-locale",
  "x-platform",
  "x-request-id",
  "x-service",
].join(", ");

/** The response headers a page's script may read beside the CORS-safelisted ones. */
const EXPOSED_RESPONSE_HEADERS = [
  "idempotent-replayed",
  "ratelimit",
  "ratelimit-policy",
  "retry-after",
  "x-request-id",
].join(", ");

/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Set on the answer to a request that carries an Origin, on a route browsers may call. */
export const CORS_RESPONSE_HEADERS: readonly (readonly [string, string])[] = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", EXPOSED_RESPONSE_HEADERS],
];

/**
 * The answer to OPTIONS on a route serving `allowed` (an Allow header's value): a preflight when
 * the browser asks one of a route that `browsers` may call.
 */
export function optionsResponse(request: Request, allowed: string, browsers: boolean): Response {
  const headers = new Headers({ allow: allowed });
  if (browsers && request.headers.has("origin") && request.headers.has("access-control-request-method")) {
    headers.set("access-control-allow-origin", "*");
    headers.set("access-control-allow-methods", allowed);
    headers.set("access-control-allow-headers", ALLOWED_REQUEST_HEADERS);
    headers.set("access-control-max-age", String(PREFLIGHT_MAX_AGE_SECONDS));
  }
  return new Response(null, { status: 204, headers });
}
