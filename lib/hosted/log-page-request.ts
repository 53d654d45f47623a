import { logger } from "../log";
import { requestIdOf } from "../http/request-id";

/**
 * Every page request (hosted pages, the sandbox demo pages) gets a request id, echoed as
 * `x-request-id` on the page's answer and carried to the page's own log lines through the
 * forwarded request headers, and one log line: method, path, request id. Never the query
 * string: it carries the hosted page's token.
 */
export function notePageRequest(request: Request, forwardedHeaders: Headers): string {
  const requestId = logPageRequest({ method: request.method, path: new URL(request.url).pathname, requestIdHeader: request.headers.get("x-request-id") });
  forwardedHeaders.set("x-request-id", requestId);
  return requestId;
}

/** The log line alone, for a page served past the proxy (the console lane): the request id it gave. */
export function logPageRequest(request: { method: string; path: string; requestIdHeader: string | null | undefined }): string {
  const requestId = requestIdOf(request.requestIdHeader);
  logger.info({ requestId, method: request.method, path: request.path }, "page request");
  return requestId;
}
