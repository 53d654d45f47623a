import { logger, runWithLogContext, type RequestLogContext } from "../log";
import { RequestRateLimit } from "../rate-limit/request-rate-limit";
import { withApiHeaders } from "./api-headers";
import { requestIdFor } from "./request-id";
import { errorNameOf } from "./respond";

/**
 * The access line names fixed fields that hold no credential (method, path, status, error name, duration,
 * and the context's request id, auth mode and service), so it skips the field redaction that
 * would cost most of its time (about 0.2 ms a line); the scrub of every written line still runs.
 */
const accessLogger = logger.child({}, { redact: { paths: [], censor: "[redacted]" } });

export interface RequestScope {
  requestId: string;
  /** Auth records the request's limits here; its header fields go on the answer, whatever it is. */
  rateLimit: RequestRateLimit;
}

/**
 * What wraps every API request: the request id on every log line written while serving it,
 * the API's security headers and the rate limit fields on its answer, and one access log line at the end (method, path,
 * status, the error name of a 4xx or 5xx, duration, auth mode, service: never a credential,
 * never the query string).
 */
export async function withRequestScope(
  request: Request,
  serve: (scope: RequestScope) => Promise<Response>,
  options: { /** The route takes merchant_auth: a browser's request gets the CORS headers (cors.ts). */ browsers?: boolean } = {},
): Promise<Response> {
  const started = performance.now();
  const context: RequestLogContext = { requestId: requestIdFor(request) };
  return runWithLogContext(context, async () => {
    const rateLimit = new RequestRateLimit();
    let status = 500;
    let error: string | undefined = "internal_error";
    try {
      const response = await serve({ requestId: context.requestId, rateLimit });
      for (const [name, value] of Object.entries(rateLimit.headers())) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
      status = response.status;
      error = errorNameOf(response);
      return withApiHeaders(response, options.browsers === true && request.headers.has("origin"));
    } finally {
      accessLogger.info(
        {
          method: request.method,
          path: pathnameOf(request.url),
          status,
          ...(error ? { error } : {}),
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    }
  });
}

/**
 * The path of an absolute http(s) URL, as WHATWG URL serializes it: `request.url` is already
 * one, so the path is the text between the authority and the query (or fragment), without a
 * second parse per request.
 */
export function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const fragment = url.indexOf("#", start);
  const end = Math.min(query === -1 ? url.length : query, fragment === -1 ? url.length : fragment);
  return url.slice(start, end);
}
