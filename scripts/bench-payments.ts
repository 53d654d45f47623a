// Throughput and latency of the payment hot paths: create, proceed (OTP path) and check,
// through the real route handlers over HTTP, in process, on PostgreSQL.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/gw_bench npx tsx scripts/bench-payments.ts
// BENCH_REQUESTS (per operation, default 2000) and BENCH_CONCURRENCY (default 16) tune the run.
// The database is dropped and recreated each run, so its name must contain "bench".
import { randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import { recreateDatabase } from "./lib/recreate-database";

process.env.LOG_LEVEL ??= "silent";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("Set DATABASE_URL to a scratch PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/gw_bench");
  process.exit(1);
}

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
// client_auth allows 6,000 requests a minute per client id: spread the load so the
// numbers measure the gateway, not the rate limiter (429s are counted and printed).
const MERCHANTS = 40;

/** Only a scratch database may be dropped: its name must say so. */
function refuseUnlessBenchDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]*bench[a-z0-9_]*$/i.test(name)) {
    throw new Error(`Refusing to recreate ${name}: give a scratch database whose name contains "bench"`);
  }
}

interface Outcome {
  latencies: number[];
  statuses: Map<number, number>;
  seconds: number;
}

async function run(count: number, call: (index: number) => Promise<number>): Promise<Outcome> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const index = next++;
        const begin = performance.now();
        const status = await call(index);
        latencies.push(performance.now() - begin);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(name: string, outcome: Outcome) {
  const sorted = [...outcome.latencies].sort((a, b) => a - b);
  const statuses = [...outcome.statuses].map(([status, n]) => `${status}x${n}`).join(" ");
  console.log(
    `${name.padEnd(8)} ${String(sorted.length).padStart(6)} req  ` +
      `${(sorted.length / outcome.seconds).toFixed(0).padStart(6)} req/s` +
      `  p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms` +
      `  p99 ${percentile(sorted, 99).toFixed(1).padStart(6)} ms  [${statuses}]`,
  );
}

async function main() {
  refuseUnlessBenchDatabase(databaseUrl!);
  await recreateDatabase(databaseUrl!);
  (await import("../mount-simulators")).mountSimulators();
  const { startTestGateway } = await import("../tests/support/gateway-server");
  const { apiClient, clientAuth } = await import("../tests/support/api");
  const { onboardMerchant } = await import("../lib/merchants/onboard-merchant");
  const { closeDatabase, getDatabase } = await import("../lib/db/client");

  const { driver, db } = await getDatabase();
  const gateway = await startTestGateway();
  const api = apiClient(gateway.baseUrl);
  const merchants: Awaited<ReturnType<typeof onboardMerchant>>[] = [];
  for (let index = 0; index < MERCHANTS; index += 1) {
    merchants.push(
      await onboardMerchant(db, {
        name: `Bench ${Date.now()}-${index}`,
        countries: ["DZA"],
        origins: ["https://shop.example"],
      }),
    );
  }
  const runId = `${Date.now()}-${randomInt(1e6)}`;
  const headersOf = (index: number) => {
    const merchant = merchants[index % MERCHANTS]!;
    return clientAuth(merchant, { "x-service": merchant.service, "x-platform": "API" });
  };
  const intents: string[] = [];
  const create = (prefix: string) => async (index: number) => {
    const response = await api.post(
      "/api/v1/payments/intents?countryCode=DZA",
      {
        actionId: `${prefix}-${runId}-${index}`,
        amount: 10 + (index % 100) / 100,
        actionCurrencyCode: "DZD",
        actionCountryCode: "DZA",
        userId: `+2135${String(index % 5000).padStart(8, "0")}`,
      },
      headersOf(index),
    );
    if (response.status === 201) intents[index] = response.body.data.paymentId;
    return response.status;
  };

  // Warm up: module loading, connection pool, prepared statements, gateway key.
  const warmCount = Math.min(200, REQUESTS);
  await run(warmCount, create("warm"));
  await run(warmCount, (index) =>
    api.get(`/api/v1/payments/intents/${intents[index]}/check`, headersOf(index)).then((r) => r.status),
  );
  intents.length = 0;

  console.log(
    `driver ${driver}, ${REQUESTS} requests per operation, concurrency ${CONCURRENCY}, ${MERCHANTS} merchants`,
  );
  report("create", await run(REQUESTS, create("bench")));
  report(
    "proceed",
    await run(REQUESTS, (index) =>
      api
        .post(
          `/api/v1/payments/intents/${intents[index]}/proceed`,
          { paymentMethodCode: "WALLET_V2" },
          headersOf(index),
        )
        .then((r) => r.status),
    ),
  );
  report(
    "check",
    await run(REQUESTS, (index) =>
      api.get(`/api/v1/payments/intents/${intents[index]}/check`, headersOf(index)).then((r) => r.status),
    ),
  );
  await gateway.close();
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
