// `npm run bench`: the gateway as `npm start` serves it (every core unless WEB_CONCURRENCY says
// otherwise) against the floor, a bare Next.js 16 route on postgres.js, loaded the same way in
// the same run: req/s, p50 and p99 of create, check (client_auth and merchant_auth), proceed
// (wallet OTP path), capture and refund, the ratio to the floor, and the SQL statements each
// operation sends. A benchmark that prints numbers; it is no test and does not run in CI.
//
//   npm run bench                      (PostgreSQL on 127.0.0.1:5432, user postgres)
//   WEB_CONCURRENCY=1 npm run bench    (one serving process)
//
// It reuses the shared side-by-side kit (../shared/bench, or BENCH_KIT): the floor app
// (floor/next-api, built on first use), its schema, and the load tool gateway-load.mjs
// (autocannon, 32 connections, 3 s warm-up, 10 s measured; C, W, D override) for create,
// check, proceed and the floor's two routes; capture and refund use the same autocannon
// settings on payments prepared for them. Env: ADMIN_URL, MERCHANTS (20), BENCH_PORT (3480),
// FLOOR_PORT (3490), POOL (intents prepared for proceed, capture and refund; 3000).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const ROOT = path.resolve(import.meta.dirname, "..");
const KIT = path.resolve(process.env.BENCH_KIT ?? path.join(ROOT, "../shared/bench"));
const ADMIN_URL = process.env.ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GW_PORT = Number(process.env.BENCH_PORT ?? 3480);
const FLOOR_PORT = Number(process.env.FLOOR_PORT ?? 3490);
const MERCHANTS = Number(process.env.MERCHANTS ?? 20);
const POOL = Number(process.env.POOL ?? 3000);
const C = Number(process.env.C ?? 32);
const W = Number(process.env.W ?? 3);
const D = Number(process.env.D ?? 10);
const WORK = mkdtempSync(path.join(tmpdir(), "gateway-bench-"));
const RESULTS = path.join(WORK, "results.jsonl");
const GW_DB = `bench_gw_${process.pid}`;
const FLOOR_DB = `bench_floor_${process.pid}`;
const children: ChildProcess[] = [];

const say = (line: string) => console.error(`[bench] ${line}`);
const dbUrl = (name: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).href;

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  codes: string;
  load?: string;
}

async function main() {
  if (!existsSync(path.join(KIT, "gateway-load.mjs"))) throw new Error(`No side-by-side kit at ${KIT} (set BENCH_KIT)`);
  for (const dir of ["raw", "next-api"]) {
    if (!existsSync(path.join(KIT, "floor", dir, "node_modules")))
      run("npm", ["install", "--no-audit", "--no-fund"], path.join(KIT, "floor", dir));
  }
  if (!existsSync(path.join(KIT, "floor/next-api/.next/BUILD_ID")))
    run(process.execPath, ["node_modules/next/dist/bin/next", "build"], path.join(KIT, "floor/next-api"));

  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${GW_DB}`);
  await admin.unsafe(`create database ${FLOOR_DB}`);
  const floorSql = postgres(dbUrl(FLOOR_DB), { max: 1, onnotice: () => {} });
  await floorSql.file(path.join(KIT, "floor/schema.sql"));
  await floorSql.end();

  say(`starting the gateway (npm start's server/serve.mjs) and the floor`);
  const gateway = start(process.execPath, ["server/serve.mjs"], ROOT, {
    DATABASE_URL: dbUrl(GW_DB),
    PORT: String(GW_PORT),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: `http://127.0.0.1:${GW_PORT}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  });
  start(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(FLOOR_PORT), "-H", "127.0.0.1"],
    path.join(KIT, "floor/next-api"),
    {
      DB_DRIVER: "postgresjs",
      DATABASE_URL: dbUrl(FLOOR_DB),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  );
  const gw = `http://127.0.0.1:${GW_PORT}`;
  const floor = `http://127.0.0.1:${FLOOR_PORT}`;
  await waitUp(`${gw}/api/v1/payment-methods/available`, gateway, 600_000);
  await waitUp(`${floor}/api/v1/ping`, undefined, 120_000);

  // In process from here: the same database the servers use (migrated by npm start's prepare).
  process.env.DATABASE_URL = dbUrl(GW_DB);
  process.env.LOG_LEVEL = "silent";
  // The OTP steps and the statement counts run the gateway's code here, on the sandbox's simulators.
  (await import("../mount-simulators")).mountSimulators();
  const { onboardMerchant } = await import("../lib/merchants/onboard-merchant");
  const { getDb, closeDatabase } = await import("../lib/db/client");
  const db = await getDb();
  const merchants = [];
  for (let index = 0; index < MERCHANTS; index += 1) {
    merchants.push(
      await onboardMerchant(db, {
        name: `Bench ${index}`,
        countries: ["DZA"],
        redirectUrl: "https://shop.example/return",
        origins: ["http://shop.test"],
      }),
    );
  }
  const merchantsFile = path.join(WORK, "merchants.json");
  writeFileSync(merchantsFile, JSON.stringify(merchants));

  const processes = Number(process.env.WEB_CONCURRENCY || availableParallelism());
  say(`${processes} serving process(es), ${MERCHANTS} merchants, ${C} connections, ${W} s warm-up + ${D} s measured`);
  for (const op of ["create", "check", "check-merchant", "proceed"]) loadOp(gw, merchantsFile, op);
  for (const op of ["capture", "refund"] as const) await moneyOp(gw, merchants, op);
  for (const op of ["floor-insert", "floor-select"]) loadOp(floor, "-", op);

  const statements = await statementsPerOperation(merchants[0]!);
  await closeDatabase();

  const rows = readFileSync(RESULTS, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Row);
  const by = Object.fromEntries(rows.map((row) => [row.name, row]));
  const floorOf: Record<string, string> = {
    create: "floor-insert",
    check: "floor-select",
    "check-merchant": "floor-select",
  };
  console.log(
    `\ngateway: ${processes} process(es); floor: one next start; PostgreSQL 15; ` +
      `load average at start of each run in []`,
  );
  console.log(
    `${"operation".padEnd(16)} ${"req/s".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ` +
      `${"vs floor".padStart(9)} ${"SQL".padStart(4)}  statuses`,
  );
  for (const op of [
    "create",
    "check",
    "check-merchant",
    "proceed",
    "capture",
    "refund",
    "floor-insert",
    "floor-select",
  ]) {
    const row = by[op.startsWith("floor") ? op : `gateway-${op}`];
    if (!row) continue;
    const floorRow = by[floorOf[op] ?? ""];
    const ratio = floorRow ? (row.rps / floorRow.rps).toFixed(2) : "";
    console.log(
      `${op.padEnd(16)} ${String(row.rps).padStart(7)} ${String(row.p50).padStart(7)} ` +
        `${String(row.p99).padStart(7)} ${ratio.padStart(9)} ${String(statements[op] ?? "").padStart(4)}  ` +
        `${row.codes} [${row.load ?? ""}]`,
    );
  }
}

/** create, check, check-merchant, proceed and the floor's routes: the shared load tool, as is. */
function loadOp(base: string, merchantsFile: string, op: string) {
  const load = loadavg()[0]!.toFixed(2);
  const result = spawnSync(process.execPath, [path.join(KIT, "gateway-load.mjs"), base, merchantsFile, op], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, BENCH_JSONL: RESULTS, POOL: String(op === "proceed" ? POOL : 2000) },
  });
  if (result.status !== 0) throw new Error(`load ${op} failed`);
  tagLastRow(load);
}

function tagLastRow(load: string) {
  const lines = readFileSync(RESULTS, "utf8").trim().split("\n");
  lines[lines.length - 1] = JSON.stringify({ ...JSON.parse(lines.at(-1)!), load });
  writeFileSync(RESULTS, lines.join("\n") + "\n");
}

type Merchant = Awaited<ReturnType<typeof import("../lib/merchants/onboard-merchant").onboardMerchant>>;

/**
 * Capture and refund need a paid payment each: prepared through the API (create, proceed) and
 * the OTP step, then each captured (a reservation) or fully refunded once, POOL of them.
 */
async function moneyOp(base: string, merchants: Merchant[], op: "capture" | "refund") {
  const { apiClient } = await import("../tests/support/api");
  const { paidIntent } = await import("../tests/support/payments");
  const api = apiClient(base);
  const paid: { merchant: Merchant; id: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < POOL) {
        const merchant = merchants[next++ % merchants.length]!;
        const intent = await paidIntent(api, merchant, {
          amount: 100,
          ...(op === "capture" ? { captureMethod: "RESERVATION" as const } : {}),
        });
        paid.push({ merchant, id: intent.paymentId });
      }
    }),
  );
  const require = createRequire(path.join(KIT, "floor/raw/package.json"));
  const autocannon = require("autocannon");
  const auth = (m: Merchant) => `Bearer ${Buffer.from(`${m.clientId}:${m.clientSecret}`).toString("base64")}`;
  let index = 0;
  const load = loadavg()[0]!.toFixed(2);
  const result = await new Promise<any>((resolve, reject) =>
    autocannon(
      {
        url: base,
        connections: C,
        amount: paid.length,
        requests: [
          {
            setupRequest: (request: object) => {
              const { merchant, id } = paid[index++ % paid.length]!;
              const headers = {
                authorization: auth(merchant),
                "content-type": "application/json",
                "x-platform": "API",
              };
              return op === "capture"
                ? { ...request, method: "POST", path: `/api/v1/payments/intents/${id}/capture`, headers, body: "{}" }
                : {
                    ...request,
                    method: "POST",
                    path: `/api/v1/payments/${id}/refund`,
                    headers,
                    body: '{"description":"bench refund"}',
                  };
            },
          },
        ],
      },
      (error: Error | null, outcome: unknown) => (error ? reject(error) : resolve(outcome)),
    ),
  );
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => `${code}:${(stats as { count: number }).count}`)
    .join(" ");
  const row: Row = {
    name: `gateway-${op}`,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    codes,
    load,
  };
  appendFileSync(RESULTS, JSON.stringify(row) + "\n");
  console.log(
    `${row.name.padEnd(28)} rps=${row.rps} p50=${row.p50} p99=${row.p99} non2xx=${row.non2xx} codes=${codes}`,
  );
}

/** Statements per operation, counted on the real route handlers served in this process (warm). */
async function statementsPerOperation(merchant: Merchant): Promise<Record<string, number>> {
  const { onQuery } = await import("../lib/db/client");
  const { startTestGateway } = await import("../tests/support/gateway-server");
  const { apiClient } = await import("../tests/support/api");
  const payments = await import("../tests/support/payments");
  const local = await startTestGateway();
  const api = apiClient(local.baseUrl);
  const count = async (run: () => Promise<unknown>) => {
    let statements = 0;
    const stop = onQuery(() => (statements += 1));
    try {
      await run();
    } finally {
      stop();
    }
    return statements;
  };
  const counts: Record<string, number> = {};
  for (const round of [0, 1]) {
    // Round 0 warms the prepared statements and the gateway key; round 1 is reported.
    const created = await payments.createIntent(api, merchant);
    const fresh = payments.intentBody();
    const intentStatements = await count(() => payments.postIntent(api, merchant, fresh));
    const intent = await payments.createIntent(api, merchant);
    const checkStatements = await count(() => payments.check(api, intent.paymentId, payments.serverHeaders(merchant)));
    const checkMerchant = await count(() =>
      payments.check(api, intent.paymentId, payments.browserHeaders(merchant, intent.clientSecret)),
    );
    const proceedStatements = await count(() =>
      payments.proceed(api, created.paymentId, payments.serverHeaders(merchant)),
    );
    const reserved = await payments.paidIntent(api, merchant, { captureMethod: "RESERVATION" });
    const captureStatements = await count(() => payments.capture(api, merchant, reserved.paymentId));
    const direct = await payments.paidIntent(api, merchant);
    const refundStatements = await count(() => payments.refund(api, merchant, direct.paymentId));
    if (round === 1) {
      Object.assign(counts, {
        create: intentStatements,
        check: checkStatements,
        "check-merchant": checkMerchant,
        proceed: proceedStatements,
        capture: captureStatements,
        refund: refundStatements,
      });
    }
  }
  await local.close();
  return counts;
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`);
}

function start(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log = path.join(WORK, `${path.basename(cwd)}.log`);
  child.stdout!.on("data", (chunk: Buffer) => appendFileSync(log, chunk));
  child.stderr!.on("data", (chunk: Buffer) => appendFileSync(log, chunk));
  children.push(child);
  return child;
}

async function waitUp(url: string, child: ChildProcess | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server of ${url} exited; logs in ${WORK}`);
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`no answer from ${url}; logs in ${WORK}`);
}

async function cleanup() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 30_000).unref();
        }),
    ),
  );
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${GW_DB} with (force)`).catch(() => {});
  await admin.unsafe(`drop database if exists ${FLOOR_DB} with (force)`).catch(() => {});
  await admin.end();
  say(`logs and results in ${WORK}`);
}

main()
  .then(cleanup, async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exitCode = 1;
  })
  .finally(() => process.exit());
