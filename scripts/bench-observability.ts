// `npx tsx scripts/bench-observability.ts`: CPU microseconds per call of what the metrics and
// (disabled, then enabled) tracing add to a request, measured in one process with
// process.cpuUsage() over many calls, each against the same work without it. On a shared
// machine this moves far less than a server's CPU per request (docs/performance-log.md, issue 46),
// so it bounds the cost to set against a check's (about 0.38 ms) and a create's (0.6 to 0.8 ms).
import { BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { observeHttpRequest } from "../lib/metrics/gateway-metrics";
import { countPoolUse } from "../lib/db/pool-usage";
import { inRequestSpan, inSpan, startSpan } from "../lib/tracing/spans";
import { startTracing } from "../lib/tracing/start-tracing";
import type { Sql } from "postgres";

const N = Number(process.argv[2] ?? 200_000);

async function cpuMicros(calls: number, fn: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  for (let call = 0; call < calls; call += 1) await fn();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

/** Per call: `with` minus `without`, the median of five alternating pairs. */
async function added(name: string, without: () => unknown, withIt: () => unknown): Promise<number> {
  const deltas: number[] = [];
  await cpuMicros(N / 10, without);
  await cpuMicros(N / 10, withIt);
  for (let pair = 0; pair < 5; pair += 1) {
    const base = await cpuMicros(N, without);
    const more = await cpuMicros(N, withIt);
    deltas.push(more - base);
  }
  deltas.sort((a, b) => a - b);
  console.log(`${name.padEnd(58)} +${deltas[2]!.toFixed(3)} µs (pairs ${deltas.map((d) => d.toFixed(3)).join(", ")})`);
  return deltas[2]!;
}

const nothing = async () => 1;
const request = new Request("http://gateway.test/api/v1/payments/intents/3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12/check");

// A pool whose statements answer at once: what the wrapper adds around each.
const fakeSql = () => ({ unsafe: () => Promise.resolve([]), begin: () => Promise.resolve() }) as unknown as Sql;
const plain = fakeSql();
const counted = fakeSql();
countPoolUse(counted, 10);

console.log(`CPU per call, ${N} calls a side, five pairs (node ${process.version})`);
const metric = await added("request metrics (counter + histogram)", nothing, async () =>
  observeHttpRequest("/api/v1/payments/intents/:id/check", "GET", 200, 0.004),
);
const pool = await added(
  "pool counting, per statement",
  () => plain.unsafe("select 1"),
  () => counted.unsafe("select 1"),
);
const off = await added("tracing off: request span + operation span", nothing, () =>
  inRequestSpan(request, { requestId: "r" }, () => inSpan("operation x", nothing)),
);
console.log(
  `metrics and disabled tracing per check (1 statement): ${(metric + pool + off).toFixed(2)} µs; ` +
    `per create (1 statement): the same`,
);

// Tracing on: the SDK with a batch processor and an exporter that drops what it is given.
const dropping: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
await startTracing({ spanProcessors: [new BatchSpanProcessor(dropping)] });
const on = await added("tracing on: request + operation + 2 statement-like spans", nothing, () =>
  inRequestSpan(request, { requestId: "r" }, () =>
    inSpan("operation x", async () => {
      for (let statement = 0; statement < 2; statement += 1)
        startSpan("db SELECT", { "db.system.name": "postgresql" })?.end();
    }),
  ),
);
console.log(
  `tracing on adds about ${on.toFixed(1)} µs per request before export ` +
    `(the exporter's serialization and the network are extra)`,
);
process.exit(0);
