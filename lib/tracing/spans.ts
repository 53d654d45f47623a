import type * as OtelApi from "@opentelemetry/api";
import type { RequestLogContext } from "../log";

/**
 * The spans the gateway makes (a request, its domain operation, each database statement, each
 * provider call), through OpenTelemetry's API once lib/tracing/start-tracing.ts has started the
 * SDK. Until then (traces off, the default) nothing of OpenTelemetry is loaded and every helper
 * here calls straight through: a check or a create pays one property read per span.
 *
 * Attributes name kinds and outcomes only (a route template, an operation, a provider, a status,
 * a statement's parameterized text), never a raw path (it can carry a phone), a parameter value,
 * card data, an OTP, a token or a secret.
 */
export interface TracingRuntime {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
}

/** On globalThis: Next.js's bundle, instrumentation.ts and the API lane each load this module. */
const shared = globalThis as { gatewayTracing?: TracingRuntime };

export function tracingRuntime(): TracingRuntime | undefined {
  return shared.gatewayTracing;
}

export function installTracingRuntime(runtime: TracingRuntime | undefined): void {
  shared.gatewayTracing = runtime;
}

export type SpanAttributes = Record<string, string | number | boolean>;

/** The request's span, ended with what is known at the end (its route template and status). */
export interface RequestSpan {
  end(route: string, status: number): void;
}

const headerGetter: OtelApi.TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * Runs `serve` in a server span continuing the caller's `traceparent` (W3C trace context), and
 * puts the trace id on the request's log context, so every log line of the request carries it.
 */
export function inRequestSpan<T>(
  request: Request,
  logContext: RequestLogContext,
  serve: (span: RequestSpan | undefined) => Promise<T>,
): Promise<T> {
  const runtime = shared.gatewayTracing;
  if (!runtime) return serve(undefined);
  const { api, tracer } = runtime;
  const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers, headerGetter);
  const span = tracer.startSpan(
    request.method,
    { kind: api.SpanKind.SERVER, attributes: { "http.request.method": request.method } },
    parent,
  );
  logContext.traceId = span.spanContext().traceId;
  const ender: RequestSpan = {
    end(route, status) {
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ "http.route": route, "http.response.status_code": status });
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  };
  return api.context.with(api.trace.setSpan(parent, span), () => serve(ender));
}

/**
 * Runs `fn` in a child span of the current one; an error ends it with ERROR status and the error's name
 * (never its message).
 */
export function inSpan<T>(name: string, fn: () => Promise<T>, attributes?: SpanAttributes): Promise<T> {
  const runtime = shared.gatewayTracing;
  if (!runtime) return fn();
  const { api, tracer } = runtime;
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span ended by the caller (a provider call's outcome is known only after its classification). */
export function startSpan(
  name: string,
  attributes?: SpanAttributes,
): { end(attributes?: SpanAttributes, failed?: boolean): void } | undefined {
  const runtime = shared.gatewayTracing;
  if (!runtime) return undefined;
  const span = runtime.tracer.startSpan(name, { attributes });
  return {
    end(more, failed) {
      if (more) span.setAttributes(more);
      if (failed) span.setStatus({ code: runtime.api.SpanStatusCode.ERROR });
      span.end();
    },
  };
}
