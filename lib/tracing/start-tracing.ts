import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { installTracingRuntime, tracingRuntime, type TracingRuntime } from "./spans";

const shared = globalThis as { gatewayTracingSdk?: { shutdown(): Promise<void> } };

/**
 * Starts OpenTelemetry's Node SDK when traces are on (an OTLP endpoint or OTEL_TRACES_EXPORTER
 * is set, lib/config `tracesOn`): its exporter, sampler, resource and propagators come from the
 * standard OTEL_* variables. Off (the default), this loads nothing. Metrics and logs stay with
 * Prometheus (/api/metrics) and the JSON log lines: the SDK gets no reader or log processor.
 * `spanProcessors`: the tests' in-memory exporter, which starts tracing whatever the settings.
 */
export async function startTracing(options: { db?: Db; spanProcessors?: SpanProcessor[] } = {}): Promise<boolean> {
  if (tracingRuntime()) return true;
  if (!options.spanProcessors && !getConfig().tracesOn) return false;
  const [{ NodeSDK }, api] = await Promise.all([import("@opentelemetry/sdk-node"), import("@opentelemetry/api")]);
  const sdk = new NodeSDK({
    serviceName: getConfig().OTEL_SERVICE_NAME,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
  });
  sdk.start();
  shared.gatewayTracingSdk = sdk;
  const runtime: TracingRuntime = { api, tracer: api.trace.getTracer("payment-gateway") };
  installTracingRuntime(runtime);
  if (options.db) traceStatements(options.db, runtime);
  return true;
}

/** Sends the spans still buffered and stops the SDK (a stopping process). */
export async function stopTracing(): Promise<void> {
  await shared.gatewayTracingSdk?.shutdown().catch(() => {});
}

/**
 * A span per database statement of a traced request, around the execution of drizzle's
 * prepared queries (every statement of the gateway is one, in a transaction or not), with its
 * parameterized text and never its parameters. Patched on the class of `db`'s own queries, so it reaches whichever
 * copy of drizzle the database was opened with.
 */
function traceStatements(db: Db, runtime: TracingRuntime): void {
  const session = db._.session as unknown as {
    prepareQuery(query: { sql: string; params: unknown[] }, ...rest: unknown[]): object;
  };
  const prototype = Object.getPrototypeOf(
    session.prepareQuery({ sql: "select 1", params: [] }, undefined, undefined, false),
  ) as Record<string, unknown>;
  if (prototype.gatewayTraced) return;
  prototype.gatewayTraced = true;
  for (const method of ["execute", "all", "values"] as const) {
    const original = prototype[method];
    if (typeof original !== "function") continue;
    prototype[method] = function (this: { queryString?: string; query?: { sql: string } }, ...args: unknown[]) {
      // Only inside a traced request: the jobs' and the metrics publisher's statements would each be a trace
      // of their own.
      if (!runtime.api.trace.getSpan(runtime.api.context.active()))
        return (original as (...args: unknown[]) => unknown).apply(this, args);
      const text = this.queryString ?? this.query?.sql ?? "";
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
      return runtime.tracer.startActiveSpan(
        `db ${operation}`,
        {
          kind: runtime.api.SpanKind.CLIENT,
          attributes: {
            "db.system.name": "postgresql",
            "db.operation.name": operation,
            "db.query.text": text.slice(0, 2000),
          },
        },
        async (span) => {
          try {
            return await (original as (...args: unknown[]) => Promise<unknown>).apply(this, args);
          } catch (error) {
            span.setStatus({
              code: runtime.api.SpanStatusCode.ERROR,
              message: error instanceof Error ? error.name : "error",
            });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    };
  }
}
