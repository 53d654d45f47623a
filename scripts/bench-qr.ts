// What the QR image costs the gateway: the first render of a payment's code (the PNG
// encoding dominates) and a repeat fetch of a code already rendered.
//   npx tsx scripts/bench-qr.ts        (BENCH_PAYMENTS, default 50; BENCH_FETCHES, default 1000)
import { performance } from "node:perf_hooks";
import { qrPng } from "../lib/qr-code/qr-png";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 50);
const FETCHES = Number(process.env.BENCH_FETCHES ?? 1000);

// The length of a real sandbox wallet link: base URL, payment UUID, 64-hex token.
const walletLink = (index: number) =>
  `http://localhost:3000/sandbox/wallet/3f1c2a9e-8d4b-4c3e-9a51-${String(index).padStart(12, "0")}` +
  `?token=${"ab".repeat(32)}`;

async function main() {
  await qrPng(walletLink(-1)); // warm the module
  const renders: number[] = [];
  for (let index = 0; index < PAYMENTS; index += 1) {
    const started = performance.now();
    await qrPng(walletLink(index));
    renders.push(performance.now() - started);
  }
  const started = performance.now();
  for (let fetch = 0; fetch < FETCHES; fetch += 1) await qrPng(walletLink(fetch % PAYMENTS));
  const repeat = (performance.now() - started) / FETCHES;
  renders.sort((a, b) => a - b);
  const at = (share: number) => renders[Math.min(renders.length - 1, Math.floor(share * renders.length))]!.toFixed(1);
  console.log(`QR PNG, ${(await qrPng(walletLink(0))).length} bytes`);
  console.log(`first render of a payment's code: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (${PAYMENTS} payments)`);
  console.log(`repeat fetch of a rendered code: ${repeat.toFixed(3)} ms (${FETCHES} fetches)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
