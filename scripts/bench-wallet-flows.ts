// Latency of the wallet flows, sequentially, through the real route handlers over HTTP, in
// process, on PostgreSQL, with the sandbox wallet: proceed (server, to the OTP page), OTP
// verify (the hosted page's submit), capture and partial refund of a reservation. Run it on a
// commit and on the one before to see what a change costs:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/gw_bench_wallet npx tsx scripts/bench-wallet-flows.ts
// BENCH_PAYMENTS (default 60). The database is dropped and recreated: its name must contain "bench".
import { performance } from "node:perf_hooks";
import { recreateDatabase } from "./lib/recreate-database";
import type { WalletTransportWrapper } from "../lib/wallet-connection/wallet-connection";

process.env.LOG_LEVEL ??= "silent";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !/bench/.test(new URL(databaseUrl).pathname)) {
  console.error('Set DATABASE_URL to a scratch database whose name contains "bench"');
  process.exit(1);
}
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 60);

function summary(name: string, latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  console.log(`${name.padEnd(11)} n=${sorted.length}  p50 ${at(50).toFixed(1)} ms  p95 ${at(95).toFixed(1)} ms`);
}

// Statements per call, the gateway's and (where the wallet is reached through its client) the
// in-process sandbox wallet's apart: deterministic where latency on a loaded machine is not.
const statements = { gateway: 0, wallet: 0 };
let walletCallsUnderWay = 0;
const lastCounts: Record<string, string> = {};

async function timed<T>(into: number[], call: () => Promise<T>, name?: string): Promise<T> {
  statements.gateway = 0;
  statements.wallet = 0;
  const begin = performance.now();
  const result = await call();
  into.push(performance.now() - begin);
  if (name) lastCounts[name] = `${statements.gateway} gateway + ${statements.wallet} wallet statements`;
  return result;
}

function expectStatus(response: { status: number; body: unknown }, status: number) {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
}

async function main() {
  await recreateDatabase(databaseUrl!);
  (await import("../mount-simulators")).mountSimulators();
  const { startTestGateway } = await import("../tests/support/gateway-server");
  const { apiClient } = await import("../tests/support/api");
  const { createMerchant } = await import("../tests/support/factories");
  const { createIntent, serverHeaders, proceed, tokenOf, capture, refund } = await import("../tests/support/payments");
  const { submitPaymentOtp } = await import("../lib/payment-methods/wallet/hosted/submit-payment-otp");
  const { closeDatabase, getDb, onQuery } = await import("../lib/db/client");
  onQuery(() => {
    if (walletCallsUnderWay > 0) statements.wallet += 1;
    else statements.gateway += 1;
  });
  // Where the wallet is reached through its client, statements made during a call are the wallet's.
  const connection = (await import("../lib/wallet-connection/wallet-connection").catch(() => null)) as {
    installWalletTransport?: (wrapper: WalletTransportWrapper) => void;
  } | null;
  connection?.installWalletTransport?.(async (request, next) => {
    walletCallsUnderWay += 1;
    try {
      return await next(request);
    } finally {
      walletCallsUnderWay -= 1;
    }
  });
  const gateway = await startTestGateway();
  const api = apiClient(gateway.baseUrl);
  const merchant = await createMerchant();
  const db = await getDb();
  const times = { proceed: [] as number[], otpVerify: [] as number[], capture: [] as number[], refund: [] as number[] };

  async function walletPayment(record: boolean) {
    const sink = (list: number[]) => (record ? list : []);
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION", amount: 100 });
    const proceeded = await timed(
      sink(times.proceed),
      () => proceed(api, intent.paymentId, serverHeaders(merchant)),
      "proceed",
    );
    expectStatus(proceeded, 200);
    const token = tokenOf((proceeded.body as { data: { metadata: { payUrl: string } } }).data.metadata.payUrl);
    const verified = await timed(
      sink(times.otpVerify),
      () => submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" }),
      "otp-verify",
    );
    if (verified.statusCode !== 13) throw new Error(`OTP ended with ${verified.statusCode}`);
    expectStatus(
      await timed(sink(times.capture), () => capture(api, merchant, intent.paymentId, { amount: 80 }), "capture"),
      200,
    );
    expectStatus(
      await timed(
        sink(times.refund),
        () => refund(api, merchant, intent.paymentId, { description: "bench", amount: 30 }),
        "refund",
      ),
      200,
    );
  }

  for (let index = 0; index < 10; index += 1) await walletPayment(false); // warm-up
  for (let index = 0; index < PAYMENTS; index += 1) await walletPayment(true);
  summary("proceed", times.proceed);
  summary("otp-verify", times.otpVerify);
  summary("capture", times.capture);
  summary("refund", times.refund);
  for (const [name, counts] of Object.entries(lastCounts)) console.log(`${name.padEnd(11)} ${counts}`);
  await gateway.close();
  await closeDatabase();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
