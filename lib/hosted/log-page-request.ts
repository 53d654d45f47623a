import { logger } from "../log";
import { requestIdOf } from "../http/request-id";
import { observeHttpRequest } from "../metrics/gateway-metrics";
import { pageRouteOf } from "./page-route";

/**
 * Under `npm start`, server/serve.mjs reports each page answer (observePageAnswer), which carries
 * the request's line.
 */
const servedWithAnswerLine = () =>
  typeof (globalThis as { gatewayObservePage?: unknown }).gatewayObservePage === "function";

/**
 * Every page request (hosted pages, the sandbox demo pages) gets a request id, echoed as
 * `x-request-id` on the page's answer and carried to the page's own log lines through the
 * forwarded request headers, and one log line: method, path, request id. Never the query
 * string: it carries the hosted page's token.
 */
export function notePageRequest(request: Request, forwardedHeaders: Headers): string {
  const requestId = logPageRequest({
    method: request.method,
    path: new URL(request.url).pathname,
    requestIdHeader: request.headers.get("x-request-id"),
  });
  forwardedHeaders.set("x-request-id", requestId);
  return requestId;
}

/**
 * The log line alone, for a page served past the proxy (the console lane): the request id it gave.
 * Under `npm start` the answer's line (observePageAnswer) says it all, with status and duration.
 */
export function logPageRequest(request: {
  method: string;
  path: string;
  requestIdHeader: string | null | undefined;
}): string {
  const requestId = requestIdOf(request.requestIdHeader);
  if (!servedWithAnswerLine()) logger.info({ requestId, method: request.method, path: request.path }, "page request");
  return requestId;
}

/**
 * A page's answer as `npm start` sent it (hosted pages, payment links, the console, the demo
 * pages): one log line like the API's access line (method, path, status, duration, request id;
 * never the query string, which carries the hosted page's token) and the HTTP metrics by the
 * page's route template, so an operator can alert on pages' 4xx and 5xx as on the API's.
 */
export function observePageAnswer(answer: {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestId: string | undefined;
  traceId?: string;
  /** The route template the lane that answered matched; absent for Next's pages, read from app/ (page-route.ts). */
  route?: string;
}): void {
  const query = answer.url.indexOf("?");
  const path = query === -1 ? answer.url : answer.url.slice(0, query);
  const route = answer.route ?? pageRouteOf(path, answer.status);
  observeHttpRequest(route, answer.method, answer.status, answer.durationMs / 1000);
  const durationMs = Math.round(answer.durationMs * 10) / 10;
  logger.info(
    {
      requestId: answer.requestId,
      method: answer.method,
      path,
      route,
      status: answer.status,
      durationMs,
      ...(answer.traceId && { traceId: answer.traceId }),
    },
    "page request",
  );
}
