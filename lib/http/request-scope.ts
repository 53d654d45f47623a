import { logger, runWithLogContext, type RequestLogContext } from "../log";
import { observeHttpRequest } from "../metrics/gateway-metrics";
import { genericRouteTemplate } from "../metrics/route-template";
import { inRequestSpan } from "../tracing/spans";
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
  /**
   * The route template (lib/metrics/route-template.ts), once the route knows its parameters: the
   * metrics' and the span's label.
   */
  route?: string;
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
  options: {
    /** The route takes merchant_auth: a browser's request gets the CORS headers (cors.ts). */ browsers?: boolean;
    /** The route template, when the caller knows it before serving (a catch-all's 404). */ route?: string;
  } = {},
): Promise<Response> {
  const started = performance.now();
  const context: RequestLogContext = { requestId: requestIdFor(request) };
  return runWithLogContext(context, () =>
    inRequestSpan(request, context, async (span) => {
      const scope: RequestScope = {
        requestId: context.requestId,
        rateLimit: new RequestRateLimit(),
        route: options.route,
      };
      let status = 500;
      let error: string | undefined = "internal_error";
      const path = pathnameOf(request.url);
      try {
        const response = await serve(scope);
        for (const [name, value] of Object.entries(scope.rateLimit.headers())) {
          if (!response.headers.has(name)) response.headers.set(name, value);
        }
        status = response.status;
        error = errorNameOf(response);
        return withApiHeaders(response, options.browsers === true && request.headers.has("origin"));
      } finally {
        const durationMs = performance.now() - started;
        const route = scope.route ?? genericRouteTemplate(path);
        observeHttpRequest(route, request.method, status, durationMs / 1000);
        span?.end(route, status);
        accessLogger.info(
          {
            method: request.method,
            path,
            status,
            ...(error ? { error } : {}),
            durationMs: Math.round(durationMs * 10) / 10,
          },
          "request",
        );
      }
    }),
  );
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
