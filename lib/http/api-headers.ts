import { getConfig } from "../config";
import { CORS_RESPONSE_HEADERS } from "./cors";
import { apiHeaders, strictTransportSecurity } from "./security-headers";

let cached: readonly (readonly [string, string])[] | undefined;

/**
 * What every API response carries (nosniff, a CSP that forbids rendering and framing, HSTS when
 * the gateway's public address is https), computed once: the API sets them on its responses
 * itself instead of sending every request through the proxy, which cost about a tenth of each
 * request's CPU.
 */
export function apiResponseHeaders(): readonly (readonly [string, string])[] {
  cached ??= [
    ...Object.entries(apiHeaders),
    ...(getConfig().sendsHsts ? [["Strict-Transport-Security", strictTransportSecurity] as const] : []),
  ];
  return cached;
}

/**
 * Adds the API headers to a response that does not set them itself; `crossOrigin`: a browser's
 * request (an Origin) that the route answers (cors.ts).
 */
export function withApiHeaders(response: Response, crossOrigin = false): Response {
  try {
    setMissing(response.headers, crossOrigin);
    return response;
  } catch {
    // Response.redirect() and fetched responses have immutable headers: answer a copy.
    const copy = new Response(response.body, response);
    setMissing(copy.headers, crossOrigin);
    return copy;
  }
}

function setMissing(headers: Headers, crossOrigin: boolean) {
  for (const [name, value] of apiResponseHeaders()) if (!headers.has(name)) headers.set(name, value);
  if (crossOrigin) for (const [name, value] of CORS_RESPONSE_HEADERS) if (!headers.has(name)) headers.set(name, value);
}
