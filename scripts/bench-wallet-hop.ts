// What the HTTP hop to the wallet service adds to the wallet calls of a proceed (balance,
// start of the one-time code) and of an OTP verification (verify, debit): each sequence run
// against the sandbox wallet directly (its functions on the database) and through the HTTP
// client to the same wallet served on a local port (signing, JSON, loopback TCP, checking).
//   npx tsx scripts/bench-wallet-hop.ts   (BENCH_PAYMENTS, default 200; WALLET_BENCH_DATABASE_URL,
//   default an in-memory PGlite)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../lib/db/client";
import { createSimulatorTables } from "../lib/db/simulator-tables";
import { serveFetchHandler } from "../lib/http/serve-fetch-on-node";
import { walletClient } from "../lib/providers/wallet/http-wallet-client";
import { SANDBOX_OTP_CODE } from "../simulators/wallet/sandbox-wallet";
import { walletService } from "../simulators/wallet/wallet-service";
import { walletProtocolHandler } from "../simulators/wallet/serve-wallet-protocol";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200);

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.WALLET_BENCH_DATABASE_URL, pgliteDir: "memory://" });
  await createSimulatorTables(database);
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const qrContent = ({ qrRequestId }: { qrRequestId: string }) => `wallet://qr/${qrRequestId}`;
  const direct = walletService({ db: database.db, qrContent });
  let baseUrl = "";
  const server = createServer(
    serveFetchHandler(walletProtocolHandler({ db: database.db, secret, basePath: "", qrContent }), () => baseUrl),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = walletClient({ baseUrl, secret, timeoutMs: 10_000 });

  const payment = () => {
    const account = { merchantId: randomUUID(), customerId: randomUUID() };
    return { paymentId: randomUUID(), account, currency: "DZD", amountMinor: 150_050 };
  };
  const sequences = {
    "proceed (balance + start code)": {
      direct: async (p: ReturnType<typeof payment>) => {
        await direct.balance({ ...p.account, currency: p.currency });
        await direct.startOtp(p, new Date());
      },
      http: async (p: ReturnType<typeof payment>) => {
        await client.balance({ ...p.account, currency: p.currency });
        await client.startOtp(p);
      },
      prepare: async () => {},
    },
    "OTP verification (verify + debit)": {
      direct: async (p: ReturnType<typeof payment>) => {
        await direct.verifyOtp(p.paymentId, SANDBOX_OTP_CODE, new Date());
        await direct.debit({ operationId: `op_${randomUUID().replace(/-/g, "")}`, ...p }, new Date());
      },
      http: async (p: ReturnType<typeof payment>) => {
        await client.verifyOtp(p.paymentId, SANDBOX_OTP_CODE);
        await client.debit({ operationId: `op_${randomUUID().replace(/-/g, "")}`, ...p });
      },
      prepare: (p: ReturnType<typeof payment>) => direct.startOtp(p, new Date()),
    },
  };

  console.log(`wallet calls per payment, ${PAYMENTS} payments each, ${database.driver}; ms per sequence`);
  for (const [name, sequence] of Object.entries(sequences)) {
    const timings: Record<"direct" | "http", number[]> = { direct: [], http: [] };
    for (let index = 0; index < PAYMENTS + 20; index += 1) {
      // Alternate so both sides see the same database state and warm-up; the first 20 are warm-up.
      for (const side of index % 2 === 0 ? (["direct", "http"] as const) : (["http", "direct"] as const)) {
        const p = payment();
        await sequence.prepare(p);
        const started = performance.now();
        await sequence[side](p);
        if (index >= 20) timings[side].push(performance.now() - started);
      }
    }
    const at = (values: number[], share: number) =>
      [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(share * values.length))]!;
    const line = (side: "direct" | "http") =>
      `p50 ${at(timings[side], 0.5).toFixed(2)}, p95 ${at(timings[side], 0.95).toFixed(2)}`;
    console.log(
      `${name}: direct ${line("direct")} | over HTTP ${line("http")} | ` +
        `hop adds p50 ${(at(timings.http, 0.5) - at(timings.direct, 0.5)).toFixed(2)} ms`,
    );
  }
  server.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
