import { logger } from "../log";
import { requestIdFor } from "../http/request-id";

/**
 * Every page request (hosted pages, the sandbox demo pages) gets a request id, echoed as
 * `x-request-id` on the page's answer and carried to the page's own log lines through the
 * forwarded request headers, and one log line: method, path, request id. Never the query
 * string: it carries the hosted page's token.
 */
export function notePageRequest(request: Request, forwardedHeaders: Headers): string {
  const requestId = requestIdFor(request);
  forwardedHeaders.set("x-request-id", requestId);
  logger.info({ requestId, method: request.method, path: new URL(request.url).pathname }, "page request");
  return requestId;
}
