import { getConfig } from "../config";
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
    ...(getConfig().publicBaseUrl.startsWith("https:") ? [["Strict-Transport-Security", strictTransportSecurity] as const] : []),
  ];
  return cached;
}

/** Adds the API headers to a response that does not set them itself. */
export function withApiHeaders(response: Response): Response {
  try {
    setMissing(response.headers);
    return response;
  } catch {
    // Response.redirect() and fetched responses have immutable headers: answer a copy.
    const copy = new Response(response.body, response);
    setMissing(copy.headers);
    return copy;
  }
}

function setMissing(headers: Headers) {
  for (const [name, value] of apiResponseHeaders()) if (!headers.has(name)) headers.set(name, value);
}
