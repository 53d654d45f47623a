import type { IncomingMessage, ServerResponse } from "node:http";
import { tracingRuntime } from "../tracing/spans";
import { pageRouteOf } from "./page-route";

/**
 * While traces are on, `npm start` serves each page request (hosted pages, payment links, the
 * console) inside a server span of its own, named by the page's route template once it has
 * answered, continuing an incoming `traceparent`; the page's answer line carries its trace id.
 * The template is the one the page's metrics and log line carry: the lane's that answered
 * (`gatewayRoute`, which the console and hosted lanes set), else the app folder's Next.js served
 * (page-route.ts). server/door.mjs calls it through globalThis, which instrumentation.ts sets only then.
 */
export function tracePageRequest(request: IncomingMessage, response: ServerResponse, serve: () => void): void {
  const runtime = tracingRuntime();
  if (!runtime) return serve();
  const { api, tracer } = runtime;
  const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers, {
    get: (headers, key) => {
      const value = headers[key];
      return Array.isArray(value) ? value[0] : value;
    },
    keys: (headers) => Object.keys(headers),
  });
  const method = request.method ?? "GET";
  const span = tracer.startSpan(
    method,
    { kind: api.SpanKind.SERVER, attributes: { "http.request.method": method } },
    parent,
  );
  (response as { gatewayTraceId?: string }).gatewayTraceId = span.spanContext().traceId;
  response.once("close", () => {
    const laneRoute = (response as { gatewayRoute?: string }).gatewayRoute;
    const route = laneRoute ?? pageRouteOf((request.url ?? "/").split("?")[0]!, response.statusCode);
    span.updateName(`${method} ${route}`);
    span.setAttributes({ "http.route": route, "http.response.status_code": response.statusCode });
    if (response.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  });
  api.context.with(api.trace.setSpan(parent, span), serve);
}
