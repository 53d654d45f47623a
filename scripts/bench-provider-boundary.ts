// Latency of the card operations that go through the provider-operation boundary: proceed
// (provider intent created before the transaction), capture and refund (recorded, called,
// settled), sequentially, through the real route handlers over HTTP, in process, on PostgreSQL,
// with the sandbox's in-database card provider (so the provider itself costs what it cost
// before the boundary). Run it on this commit and on the one before the boundary to see what
// the boundary adds:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/gw_bench_11 npx tsx scripts/bench-provider-boundary.ts
// BENCH_PAYMENTS (default 100). The database is dropped and recreated: its name must contain "bench".
import { performance } from "node:perf_hooks";
import { recreateDatabase } from "./lib/recreate-database";

process.env.LOG_LEVEL ??= "silent";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !/bench/.test(new URL(databaseUrl).pathname)) {
  console.error('Set DATABASE_URL to a scratch database whose name contains "bench"');
  process.exit(1);
}
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100);

function summary(name: string, latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  console.log(
    `${name.padEnd(8)} n=${sorted.length}  mean ${mean.toFixed(2)} ms` +
      `  p50 ${at(50).toFixed(2)} ms  p95 ${at(95).toFixed(2)} ms`,
  );
}

async function timed(into: number[], call: () => Promise<{ status: number; body: unknown }>, expected: number) {
  const begin = performance.now();
  const response = await call();
  into.push(performance.now() - begin);
  if (response.status !== expected)
    throw new Error(`expected ${expected}, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

async function main() {
  await recreateDatabase(databaseUrl!);
  (await import("../mount-simulators")).mountSimulators();
  const { startTestGateway } = await import("../tests/support/gateway-server");
  const { apiClient } = await import("../tests/support/api");
  const { createMerchant } = await import("../tests/support/factories");
  const { createIntent, serverHeaders, proceed, tokenOf, capture, refund } = await import("../tests/support/payments");
  const { confirmAtProvider, completeOnPage, TEST_CARDS } = await import("../tests/support/cards");
  const { closeDatabase } = await import("../lib/db/client");
  const gateway = await startTestGateway();
  const api = apiClient(gateway.baseUrl);
  const merchant = await createMerchant();
  const times = { proceed: [] as number[], capture: [] as number[], refund: [] as number[] };

  async function cardPayment(captureMethod: "DIRECT" | "RESERVATION", record: boolean) {
    const intent = await createIntent(api, merchant, { captureMethod });
    const proceeded = await timed(
      record ? times.proceed : [],
      () => proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CARD_PROVIDER" }),
      200,
    );
    const page = {
      paymentId: intent.paymentId,
      token: tokenOf((proceeded.body as { data: { metadata: { payUrl: string } } }).data.metadata.payUrl),
    };
    const confirmed = await confirmAtProvider(api, page, { card: TEST_CARDS.visa });
    await completeOnPage(page, confirmed.paymentIntentId);
    return intent.paymentId;
  }

  for (let index = 0; index < 20; index += 1) await cardPayment("DIRECT", false); // warm-up
  for (let index = 0; index < PAYMENTS; index += 1) {
    const reserved = await cardPayment("RESERVATION", true);
    await timed(times.capture, () => capture(api, merchant, reserved, { amount: 10 }), 200);
    const paid = await cardPayment("DIRECT", true);
    await timed(times.refund, () => refund(api, merchant, paid, { description: "bench", amount: 1 }), 200);
  }
  console.log(`card operations, sequential, ${PAYMENTS} each (proceed: ${2 * PAYMENTS})`);
  summary("proceed", times.proceed);
  summary("capture", times.capture);
  summary("refund", times.refund);
  await gateway.close();
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
