// `node scripts/bench-cpu.mjs`: CPU milliseconds per request of one server process (the gateway's or the
// floor's), read from /proc/<pid>/stat (utime + stime) around a fixed number of requests sent with the
// shared kit's autocannon (32 connections; C overrides), after 1,000 warm-up requests. On a shared
// machine req/s moves with the neighbours; CPU per request much less, and a ratio to the floor
// measured the same way, interleaved, less still. It also prints what PostgreSQL's processes and
// the whole machine spent per request (pgMsPerReq, machineMsPerReq: /proc of every process named
// postgres, and /proc/stat), when PostgreSQL runs on this machine: on 2 cores its share is CPU
// the server does not get.
//   node scripts/bench-cpu.mjs BASE_URL PID[,PID...] OP N [MERCHANTS_JSON]
// OP: create | check | check-merchant | proceed (the gateway, proceed = wallet OTP path on a fresh intent
//     each; MERCHANTS_JSON as side-by-side.sh onboards them)
//     floor-select | floor-insert (the floor app). OUT=file appends the JSON line, LABEL tags it.
// ACCEPT_ENCODING sends that header on every request, as merchants' HTTP clients do (Node's fetch:
// "gzip, deflate, br"); the shared kit's load sends none.
// CALLGRIND_DIR counts instructions instead of CPU time, for a server started under
// `valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$CALLGRIND_DIR/callgrind.out.%p`
// (PID is then its process): instrumentation is switched on after the warm-up, counters zeroed,
// the N requests sent, the counts dumped and read. An instruction count does not move with the
// neighbours' load, so small differences show on a busy machine (timers, which fire by the clock,
// run more often under valgrind's slowdown: see docs/performance-log.md, issue 46).
import fs from "node:fs";
import { createRequire } from "node:module";
import { randomUUID, randomInt } from "node:crypto";
import { execFileSync } from "node:child_process";
const kit = process.env.BENCH_KIT ?? new URL("../../shared/bench", import.meta.url).pathname;
const require = createRequire(`${kit}/floor/raw/package.json`);
const autocannon = require("autocannon");
const [base, pidArg, op, nArg, merchantsFile] = process.argv.slice(2);
const pids = pidArg.split(",").map(Number);
const N = Number(nArg);
const C = Number(process.env.C ?? 32);
const merchants = merchantsFile ? JSON.parse(fs.readFileSync(merchantsFile, "utf8")) : [];
const auth = (m) => "Bearer " + Buffer.from(`${m.clientId}:${m.clientSecret}`).toString("base64");
const phone = () => "+2135" + String(randomInt(10_000_000, 99_999_999));
const createBody = () =>
  JSON.stringify({
    actionId: randomUUID(),
    amount: 1500.5,
    actionCurrencyCode: "DZD",
    actionCountryCode: "DZA",
    userId: phone(),
  });
let mi = 0;
const nextMerchant = () => merchants[mi++ % merchants.length];
const ticks = () =>
  pids.reduce((s, pid) => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return s + Number(f[11]) + Number(f[12]);
  }, 0);
const rss = () =>
  pids.map((pid) => Math.round((Number(fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096) / 1048576));
async function createIntents(n) {
  const out = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (i < n) {
        i++;
        const m = nextMerchant();
        const r = await fetch(`${base}/api/v1/payments/intents?countryCode=DZA`, {
          method: "POST",
          headers: { authorization: auth(m), "content-type": "application/json", "x-platform": "API" },
          body: createBody(),
        });
        if (r.status !== 201) throw new Error(`create ${r.status} ${await r.text()}`);
        const j = await r.json();
        out.push({ m, id: j.data.paymentId, secret: j.data.clientSecret });
      }
    }),
  );
  return out;
}
let pool = [];
const postgresTicks = () => {
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
      // With the reaped children's time: autovacuum workers and other backends that exit during the run.
      const f = stat.split(") ")[1].split(" ");
      total += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return total;
};
const machineBusyTicks = () => {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  return f[0] + f[1] + f[2] + f[5] + f[6];
};
if (op === "floor-select") {
  const r = await fetch(`${base}/api/v1/intents`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"tenant":"t1","amount":1500,"currency":"DZD","metadata":{}}',
  });
  pool = [(await r.json()).id];
}
if (op.startsWith("check")) pool = await createIntents(Number(process.env.POOL ?? 1500));
// A proceed moves its intent on: one fresh intent per request, warm-up included.
if (op === "proceed") pool = await createIntents(Math.min(N, 1000) + N);
let k = 0;
const make = () => {
  if (op === "floor-insert")
    return {
      method: "POST",
      path: "/api/v1/intents",
      headers: { "content-type": "application/json" },
      body: '{"tenant":"t1","amount":1500,"currency":"DZD","metadata":{"order":"A-1"}}',
    };
  if (op === "floor-select") return { method: "GET", path: `/api/v1/intents/${pool[0]}` };
  if (op === "create") {
    const m = nextMerchant();
    return {
      method: "POST",
      path: "/api/v1/payments/intents?countryCode=DZA",
      headers: { authorization: auth(m), "content-type": "application/json", "x-platform": "API" },
      body: createBody(),
    };
  }
  const p = pool[k++ % pool.length];
  if (op === "check")
    return {
      method: "GET",
      path: `/api/v1/payments/intents/${p.id}/check`,
      headers: { authorization: auth(p.m), "x-service": p.m.service, "x-platform": "API" },
    };
  if (op === "proceed")
    return {
      method: "POST",
      path: `/api/v1/payments/intents/${p.id}/proceed`,
      headers: {
        authorization: auth(p.m),
        "x-service": p.m.service,
        "x-platform": "API",
        "content-type": "application/json",
      },
      body: '{"paymentMethodCode":"WALLET_V2"}',
    };
  if (op === "check-merchant")
    return {
      method: "GET",
      path: `/api/v1/payments/intents/${p.id}/check`,
      headers: { authorization: `Bearer ${p.m.publishableKey}`, "x-client-secret": p.secret, "x-platform": "WEB" },
    };
};
const acceptEncoding = process.env.ACCEPT_ENCODING ? { "accept-encoding": process.env.ACCEPT_ENCODING } : {};
const withClientHeaders = (request) => ({ ...request, headers: { ...request.headers, ...acceptEncoding } });
const run = (amount) =>
  new Promise((res, rej) => {
    const codes = {};
    const inst = autocannon(
      {
        url: base,
        connections: C,
        amount,
        requests: [{ setupRequest: (req) => ({ ...req, ...withClientHeaders(make()) }) }],
      },
      (e, r) => (e ? rej(e) : res({ r, codes })),
    );
    inst.on("response", (_c, s) => {
      codes[s] = (codes[s] ?? 0) + 1;
    });
  });
await run(Math.min(N, 1000)); // warm-up
if (process.env.CALLGRIND_DIR) {
  const [pid] = pids;
  const control = (...args) => execFileSync("callgrind_control", [...args, String(pid)], { stdio: "ignore" });
  const dumps = () =>
    fs.readdirSync(process.env.CALLGRIND_DIR).filter((name) => name.startsWith(`callgrind.out.${pid}.`));
  control("-i", "on");
  control("-z");
  const before = new Set(dumps());
  const w0 = process.hrtime.bigint();
  const { codes } = await run(N);
  const wall = Number(process.hrtime.bigint() - w0) / 1e6;
  control("-d");
  control("-i", "off");
  let dump;
  for (let tries = 0; !dump && tries < 100; tries += 1) {
    dump = dumps().find((name) => !before.has(name));
    if (!dump) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const summary = fs.readFileSync(`${process.env.CALLGRIND_DIR}/${dump}`, "utf8").match(/^summary: (\d+)/m);
  const line = {
    op,
    n: N,
    instructionsPerReq: Math.round(Number(summary[1]) / N),
    wallMs: Math.round(wall),
    codes: JSON.stringify(codes),
  };
  console.log(JSON.stringify(line));
  if (process.env.OUT)
    fs.appendFileSync(process.env.OUT, JSON.stringify({ ...line, label: process.env.LABEL ?? "" }) + "\n");
  process.exit(0);
}
const t0 = ticks();
const pg0 = postgresTicks();
const m0 = machineBusyTicks();
const w0 = process.hrtime.bigint();
const { r, codes } = await run(N);
const t1 = ticks();
const pg1 = postgresTicks();
const m1 = machineBusyTicks();
const wall = Number(process.hrtime.bigint() - w0) / 1e6;
const cpuMs = (t1 - t0) * 10; // 100 Hz clock ticks
const line = {
  op,
  n: N,
  cpuMsPerReq: +(cpuMs / N).toFixed(3),
  pgMsPerReq: +(((pg1 - pg0) * 10) / N).toFixed(3),
  machineMsPerReq: +(((m1 - m0) * 10) / N).toFixed(3),
  rps: Math.round((N / wall) * 1000),
  p50: r.latency.p50,
  p99: r.latency.p99,
  codes: JSON.stringify(codes),
  rssMB: rss().join("/"),
  load: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
};
console.log(JSON.stringify(line));
if (process.env.OUT)
  fs.appendFileSync(process.env.OUT, JSON.stringify({ ...line, label: process.env.LABEL ?? "" }) + "\n");
