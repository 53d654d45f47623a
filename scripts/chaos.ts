// `npm run chaos -- [--duration 180] [--users 6] [--max-requests 200000] [--kill-every 5]
//   [--fault-every 3] [--port 4161] [--drain 420] [--logs <dir>]`
// Local only. On a private PostgreSQL cluster it starts itself (port --port; the gateways, the
// webhook receiver and the Stripe simulator on the next four ports; never the shared server),
// runs two gateway processes and a worker under a mixed load, kills a random one with SIGKILL
// every few seconds (restarted), makes the merchant's webhook endpoint fail, time out and answer
// slowly for a while, injects card provider faults, restarts PostgreSQL once in the middle, then
// waits for the queues to drain, runs the audit and prints the figures. Exits 1 when a 5xx other
// than the restart's 503 service_unavailable (or a provider fault's 503 provider_unavailable), a
// violation or an undelivered event is found. Bounded: the load stops at --duration or
// --max-requests, the drain at --drain.
import { spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { formatAuditReport, runAudit } from "../lib/audit/run-audit";
import { watchMetrics } from "./chaos/metrics-watch";
import { closeDatabase, getDb } from "../lib/db/client";
import { driverNullSocketWrites } from "../lib/db/driver-socket-guard";
import { onboardMerchant } from "../lib/merchants/onboard-merchant";
import { sqlRows } from "../lib/db/sql-rows";
import { mountSimulators } from "../mount-simulators";
import { ChaosClient, newStats, runLoad } from "./chaos/load";
import { startProviderFaults, type ProviderFaults } from "./chaos/provider-faults";
import { redirectScenarios, type RedirectRail } from "./chaos/redirect-load";
import { createPrivatePostgres } from "./lib/private-postgres";
import { recreateDatabase } from "./lib/recreate-database";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "180" },
    users: { type: "string", default: "6" },
    "max-requests": { type: "string", default: "200000" },
    "kill-every": { type: "string", default: "5" },
    drain: { type: "string", default: "420" },
    port: { type: "string", default: "4161" },
    logs: { type: "string", default: "" },
    "fault-every": { type: "string", default: "3" },
    // The redirect card rails in the load (and their faults): comma-separated, or "none".
    rails: { type: "string", default: "SATIM,CLICTOPAY,CMI,CHARGILY" },
  },
});
const durationMs = Number(values.duration) * 1000;
const killEveryMs = Number(values["kill-every"]) * 1000;
const pgPort = Number(values.port);
const gatewayPorts = [pgPort + 1, pgPort + 2];
const receiverPort = pgPort + 3;
const providerPort = pgPort + 4;
// Seconds between two provider faults; 0 keeps the in-database card sandbox and injects none.
const faultEveryMs = Number(values["fault-every"]) * 1000;
const RAIL_NAMES: RedirectRail[] = ["SATIM", "CLICTOPAY", "CMI", "CHARGILY"];
const rails =
  values.rails === "none" ? [] : values.rails.split(",").map((rail) => rail.trim().toUpperCase() as RedirectRail);
for (const rail of rails)
  if (!RAIL_NAMES.includes(rail))
    throw new Error(`--rails ${values.rails}: ${rail} is not one of ${RAIL_NAMES.join(", ")} (or none)`);
// Short retries so deliveries recover within the run; 10 retries span about 4 minutes.
const RETRY_SCHEDULE = "1,2,4,8,15,30,45,60,60,60";
const ROOT = path.resolve(import.meta.dirname, "..");
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
const log = (line: string) => console.log(`[chaos ${elapsed()}] ${line}`);
const CHAOS_METRICS_TOKEN = "chaos-run-metrics-token-0123456789abcdef";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the merchant's webhook endpoint: bad for a while, then good --------------------------
type Mode = "good" | "failing" | "timeout" | "slow";
let receiverMode: Mode = "good";
const deliveries = new Map<string, number>(); // webhook-id -> 2xx answers given
const receiverAnswers = new Map<string, number>();
const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const id = String(request.headers["webhook-id"] ?? "");
    const mode: Mode = receiverMode === "good" ? "good" : (["failing", "timeout", "slow"] as const)[randomInt(3)]!;
    receiverAnswers.set(mode, (receiverAnswers.get(mode) ?? 0) + 1);
    if (mode === "failing") return void response.writeHead(randomInt(2) ? 500 : 503).end();
    if (mode === "timeout") return; // held open until the worker gives up
    // Counted once the 2xx actually went out: a worker that gave up (timeout) or died first
    // closed the connection, and that delivery was not one.
    const answer = () => {
      response.once("finish", () => deliveries.set(id, (deliveries.get(id) ?? 0) + 1));
      if (!request.socket.destroyed) response.writeHead(204).end();
    };
    if (mode === "slow") setTimeout(answer, randomInt(2000, 8000));
    else answer();
  });
});

// ---- processes ---------------------------------------------------------------------------
const cluster = createPrivatePostgres({ port: pgPort, prefix: "gateway-chaos-" });
const databaseUrl = cluster.url("gateway");
// Every process's warnings and errors (a 500's "unhandled error" with its stack, a crash's
// stack) go to one file per process, so a 5xx or an unexpected exit can be diagnosed.
const logDir = values.logs || path.join(cluster.dataDir, "..", `${path.basename(cluster.dataDir)}-logs`);
mkdirSync(logDir, { recursive: true });
const baseEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  APP_ENV: "sandbox",
  LOG_LEVEL: "warn",
  WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
  GATEWAY_BACKGROUND_JOBS: "off",
  DATABASE_POOL_SIZE: "5",
  // Every process publishes its counts; the run watches GET /api/metrics as Prometheus would.
  METRICS_TOKEN: CHAOS_METRICS_TOKEN,
} as NodeJS.ProcessEnv;

interface Supervised {
  name: string;
  child?: ChildProcess;
  /** It announced itself (listening, or the worker's jobs running) since its last start. */
  ready: boolean;
  restarts: number;
  kills: number;
}
const supervised: Supervised[] = [
  ...gatewayPorts.map((port) => ({ name: `gateway:${port}`, ready: false, restarts: 0, kills: 0 })),
  { name: "worker", ready: false, restarts: 0, kills: 0 },
];
let stopping = false;
let providerFaults: ProviderFaults | undefined;

function launch(entry: Supervised) {
  const [script, env] = entry.name.startsWith("gateway")
    ? // One public address for both, as behind a load balancer: the card page's return_url must be on it.
      [
        "scripts/chaos/gateway-process.ts",
        { CHAOS_PORT: entry.name.split(":")[1]!, PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPorts[0]}` },
      ]
    : ["scripts/worker.ts", {}];
  // Node itself with tsx's loader, not the tsx command: that one runs the script in a child
  // process, so a SIGKILL to it killed only the wrapper and left the real gateway serving (an
  // orphan holding the port; its replacement died of EADDRINUSE).
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...baseEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const file = createWriteStream(path.join(logDir, `${entry.name.replace(":", "-")}.log`), { flags: "a" });
  entry.ready = false;
  child.stdout?.on("data", (chunk: Buffer) => {
    if (/^(gateway \d+ on|Worker \()/m.test(chunk.toString())) entry.ready = true;
  });
  child.stdout?.pipe(file, { end: false });
  child.stderr?.pipe(file, { end: false });
  entry.child = child;
  child.on("exit", (code, signal) => {
    entry.ready = false;
    if (stopping) return;
    if (signal !== "SIGKILL")
      file.write(`\n[chaos] ${entry.name} pid ${child.pid} exited by itself: code ${code} signal ${signal}\n`);
    entry.restarts += 1;
    setTimeout(() => launch(entry), 300);
  });
}

async function waitForGateways() {
  for (const port of gatewayPorts) {
    for (let attempt = 0; attempt < 240; attempt += 1) {
      try {
        await fetch(`http://127.0.0.1:${port}/api/v1/payment-methods`);
        break;
      } catch {
        await sleep(500);
      }
    }
  }
}

/** How often `pattern` occurs in the processes' log files. */
function countInLogs(pattern: RegExp): number {
  return readdirSync(logDir).reduce(
    (sum, name) => sum + (readFileSync(path.join(logDir, name), "utf8").match(pattern)?.length ?? 0),
    0,
  );
}

async function dbRows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return sqlRows<T>(await (await getDb()).execute(query));
}

/** Refuses to start while anything listens on the run's ports: a process left from another run
 * would serve this run's requests with that run's cached gateway key and database state. */
async function assertPortsFree() {
  for (const port of [pgPort, ...gatewayPorts, receiverPort, providerPort]) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (!free) throw new Error(`port ${port} is in use: a process of an earlier chaos run? Stop it, or pass --port`);
  }
}

async function main() {
  await assertPortsFree();
  log(
    `private PostgreSQL on ${pgPort}, gateways on ${gatewayPorts.join(", ")}, receiver on ${receiverPort}; ` +
      `process logs in ${logDir}`,
  );
  cluster.start();
  await recreateDatabase(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.WEBHOOK_RETRY_SCHEDULE = RETRY_SCHEDULE;
  process.env.LOG_LEVEL = "silent";
  if (faultEveryMs > 0) {
    // This process serves the simulator and runs the buyers' page steps: same provider as the gateways.
    process.env.CARD_PROVIDER_API_URL = `http://127.0.0.1:${providerPort}`;
    (globalThis as { gatewayConfig?: unknown }).gatewayConfig = undefined;
  }
  await getDb(); // migrates
  // The buyers' page steps run here (card page, OTP, 3DS), on this sandbox's simulators.
  mountSimulators();
  if (faultEveryMs > 0) {
    providerFaults = await startProviderFaults({ db: getDb, port: providerPort });
    Object.assign(baseEnv, providerFaults.env);
    // This process presses Pay for CMI's buyers (the page's signed form): the same providers as the gateways.
    Object.assign(process.env, providerFaults.env);
    (globalThis as { gatewayConfig?: unknown }).gatewayConfig = undefined;
  }
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
  const merchants = [];
  for (let index = 0; index < 3; index += 1) {
    merchants.push(
      await onboardMerchant(await getDb(), {
        name: `Chaos Shop ${index + 1}`,
        countries: ["DZA"],
        redirectUrl: "https://shop.example/return",
        webhookUrl: `http://127.0.0.1:${receiverPort}/hooks/${index + 1}`,
        origins: ["https://shop.example"],
      }),
    );
  }
  // The merchant with the redirect card rails: SATIM and Chargily in DZD, ClicToPay in TND, CMI in MAD.
  const redirectMerchant = await onboardMerchant(await getDb(), {
    name: "Chaos Redirect Shop",
    countries: ["DZA", "MAR", "TUN"],
    redirectUrl: "https://shop.example/return",
    webhookUrl: `http://127.0.0.1:${receiverPort}/hooks/redirect`,
    origins: ["https://shop.example"],
  });
  for (const entry of supervised) launch(entry);
  await waitForGateways();
  log(
    `processes up; provider faults: ${providerFaults ? `one every ~${faultEveryMs / 1000}s` : "off"}; ` +
      `redirect rails: ${rails.join(", ") || "none"}; load for ${durationMs / 1000}s`,
  );

  const stats = newStats();
  const loadStart = Date.now();
  const loadEnd = loadStart + durationMs;
  const client = new ChaosClient(
    gatewayPorts.map((port) => `http://127.0.0.1:${port}`),
    stats,
    () => Date.now() > loadEnd,
  );
  const load = runLoad({
    client,
    merchants,
    users: Number(values.users),
    until: () => Date.now() > loadEnd,
    maxRequests: Number(values["max-requests"]),
    // Each rail about as often as the Stripe card scenario's third of the card traffic: all four together
    // as often as the cards.
    extra: redirectScenarios({
      merchant: redirectMerchant,
      gateway: `http://127.0.0.1:${gatewayPorts[0]}`,
      rails,
      weight: rails.length > 0 ? Math.max(1, Math.round(6 / rails.length)) : 0,
    }),
  });

  // Kills: a random gateway or the worker, every few seconds, until the load ends. Only a
  // process that is up again, and a gateway only while the other one serves: a restart takes
  // seconds (more on a loaded machine), and killing both gateways at once would measure
  // downtime, not what a crash mid-request leaves behind.
  const killable = (entry: Supervised) =>
    entry.ready &&
    entry.child?.exitCode === null &&
    (!entry.name.startsWith("gateway") ||
      supervised.every((other) => other === entry || !other.name.startsWith("gateway") || other.ready));
  const kills = (async () => {
    while (Date.now() < loadEnd - killEveryMs) {
      await sleep(killEveryMs * (0.5 + Math.random()));
      const candidates = supervised.filter(killable);
      const victim = candidates[randomInt(Math.max(1, candidates.length))];
      if (victim?.child) {
        victim.kills += 1;
        victim.child.kill("SIGKILL");
      }
    }
  })();

  // The merchant's endpoint misbehaves from 10 % to 35 % of the run (at most 60 s), then recovers.
  const receiverPlan = (async () => {
    await sleep(durationMs * 0.1);
    receiverMode = "failing";
    log("webhook receiver: failing, timing out and slow");
    await sleep(Math.min(60_000, durationMs * 0.25));
    receiverMode = "good";
    log("webhook receiver: recovered");
  })();

  // One PostgreSQL restart in the middle; its window (plus reconnect grace) is where 503s are allowed.
  let dbWindow = { from: 0, to: 0 };
  const dbRestart = (async () => {
    await sleep(durationMs * 0.5);
    dbWindow.from = Date.now();
    log("PostgreSQL: stopping (fast)");
    cluster.stop("fast");
    await sleep(5000);
    cluster.start();
    dbWindow.to = Date.now() + 15_000;
    log(`PostgreSQL: started again after ${((Date.now() - dbWindow.from) / 1000).toFixed(1)}s`);
  })();

  const metricsWatch = watchMetrics(
    gatewayPorts.map((port) => `http://127.0.0.1:${port}`),
    CHAOS_METRICS_TOKEN,
  );
  const faults = providerFaults?.run({
    everyMs: faultEveryMs,
    until: () => Date.now() > loadEnd,
    rails: ["card (Stripe)", ...rails],
  });
  await Promise.all([load, kills, receiverPlan, dbRestart, faults]);
  log(`load done: ${stats.sent} requests; draining queues`);

  // Drain: every webhook delivered (or settled), no card provider event left to deliver, and
  // every provider operation a fault left unknown reconciled by the worker. An operation still
  // open at the end is judged by the audit's provider_operations_settled bound.
  const drainEnd = Date.now() + Number(values.drain) * 1000;
  // And every redirect order the buyer finished at its provider (paid, declined or canceled, returned
  // or not) settled on the gateway's side: by the return, the provider's notification or the
  // reconciliation job (every 10 s).
  let pending = { notifications: -1, providerEvents: -1, operations: -1, redirectOrders: -1 };
  while (Date.now() < drainEnd) {
    try {
      const [row] = await dbRows<{
        notifications: number;
        provider_events: number;
        operations: number;
        redirect_orders: number;
      }>(sql`
        select (select count(*)::int from notifications where status = 'pending') as notifications,
               (select count(*)::int from simulators.card_provider_events
                 where delivered_at is null) as provider_events,
               (select count(*)::int from provider_operations where status in ('pending', 'unknown')) as operations,
               (select count(*)::int from redirect_payments rp
                 where rp.finished_at is null and rp.provider_order_id is not null
                   and (exists (select 1 from simulators.satim_orders o
                                where o.order_id = rp.provider_order_id and o.order_status <> '0')
                     or exists (select 1 from simulators.clictopay_orders o
                                where o.order_id = rp.provider_order_id and o.order_status not in ('0', '5'))
                     or exists (select 1 from simulators.cmi_orders o
                                where o.oid = rp.provider_order_id and o.status <> 'P')
                     or exists (select 1 from simulators.chargily_checkouts o
                                where o.id = rp.provider_order_id and o.status <> 'pending'))) as redirect_orders`);
      pending = {
        notifications: row!.notifications,
        providerEvents: row!.provider_events,
        operations: row!.operations,
        redirectOrders: row!.redirect_orders,
      };
      if (pending.notifications === 0 && pending.operations === 0 && pending.redirectOrders === 0) break;
    } catch {
      // The driver's own connection after the restart: try again.
    }
    await sleep(2000);
  }
  log(
    `drained: ${pending.notifications} pending events, ${pending.providerEvents} undelivered provider events, ` +
      `${pending.operations} provider operations still open, ` +
      `${pending.redirectOrders} redirect orders finished at their provider and not settled`,
  );
  // The worker's backlog job (every 15 s) and its snapshot (every 5 s) bring the gauge to 0.
  const awaitingAtEnd = await metricsWatch.untilReconciled(40_000);
  log(`reconciliation backlog as /api/metrics reports it: ${awaitingAtEnd ?? "not read"}`);
  await metricsWatch.stop();
  stopping = true;
  for (const entry of supervised) entry.child?.kill("SIGTERM");
  await sleep(1000);
  for (const entry of supervised) if (entry.child?.exitCode === null) entry.child.kill("SIGKILL");

  const report = await runAudit(await getDb(), {
    retrySchedule: RETRY_SCHEDULE.split(",").map(Number),
    deliverySlackSeconds: 120,
    reconciliationBoundSeconds: Number(process.env.PROVIDER_RECONCILIATION_BOUND_SECONDS ?? 900),
  });
  const undelivered = await dbRows<{ status: string; n: number }>(
    sql`select status::text, count(*)::int as n from notifications where status <> 'delivered' group by status`,
  );
  const allEvents = await dbRows<{ id: string }>(sql`select id from notifications`);
  const neverReceived = allEvents.filter((event) => !deliveries.has(event.id)).length;
  const states = await dbRows<{ state: string; n: number }>(
    sql`select state::text, count(*)::int as n from payments group by state order by state`,
  );
  // The redirect rails' payments: how each ended, and how many the reconciliation job settled (the buyer never
  // came back).
  const redirectStates = await dbRows<{ method: string; state: string; n: number }>(sql`
    select rp.method_code::text as method, p.state::text as state, count(*)::int as n
    from redirect_payments rp join payments p on p.id = rp.payment_id group by 1, 2 order by 1, 2`);

  // ---- printout --------------------------------------------------------------------------
  const inWindow = (at: number) => at >= dbWindow.from && at <= dbWindow.to;
  // During the restart: the gateway's 503 service_unavailable (contract 12), and the sandbox card
  // provider's own browser API (Stripe's shape, not the gateway's envelope) answering its 503.
  // And a hosted address's 503 page (the redirect Pay and return: HTML, no envelope).
  const providerApi = (error: { path: string }) => error.path.startsWith("/api/card-provider-sandbox/");
  const hostedPage = (error: { path: string }) => !error.path.startsWith("/api/");
  const allowed = stats.serverErrors.filter(
    (error) =>
      error.status === 503 &&
      (error.name === "service_unavailable" || providerApi(error) || hostedPage(error)) &&
      inWindow(error.at),
  );
  // The contract's answer to a provider that failed or did not answer (retry with the same key).
  const providerAnswers = providerFaults
    ? stats.serverErrors.filter((error) => error.status === 503 && error.name === "provider_unavailable")
    : [];
  const forbidden = stats.serverErrors.filter((error) => !allowed.includes(error) && !providerAnswers.includes(error));
  const duplicates = new Map<number, number>();
  for (const count of deliveries.values()) duplicates.set(count, (duplicates.get(count) ?? 0) + 1);
  const undeliveredCount = undelivered.reduce((sum, row) => sum + row.n, 0);

  console.log("\n================ chaos run ================");
  console.log(
    `duration: load ${(durationMs / 1000).toFixed(0)} s, total ${elapsed()}; users ${values.users}; load average ${(
      await import("node:os")
    )
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `kills (SIGKILL): ${supervised.map((entry) => `${entry.name} ${entry.kills}`).join(", ")}; ` +
      `restarts: ${supervised.reduce((sum, entry) => sum + entry.restarts, 0)}`,
  );
  const unexpectedExits = supervised.reduce((sum, entry) => sum + entry.restarts - entry.kills, 0);
  console.log(
    `unexpected process exits (not our kills): ${unexpectedExits}; ` +
      `postgres.js writes to a closed connection survived (porsager/postgres#1154): ` +
      `${countInLogs(/GATEWAY_PG_NULL_SOCKET/g) + driverNullSocketWrites()}`,
  );
  console.log(
    `"unhandled error" lines in the process logs (each a 500 answered): ` +
      `${countInLogs(/"msg":"unhandled error"/g)}; logs in ${logDir}`,
  );
  console.log(`PostgreSQL restarts: 1 (down ${((dbWindow.to - 15_000 - dbWindow.from) / 1000).toFixed(1)} s)`);
  console.log(
    providerFaults
      ? `provider faults per rail:\n${providerFaults.describe().join("\n")}`
      : "provider faults: off (--fault-every 0)",
  );
  console.log(
    `requests sent: ${stats.sent} (answered ${stats.sent - stats.dropped}, ` +
      `dropped by a killed process and retried: ${stats.dropped})`,
  );
  console.log(
    `scenarios completed: ${[...stats.scenarios].map(([name, n]) => `${name} ${n}`).join(", ")}; ` +
      `steps abandoned: ${stats.abandoned}`,
  );
  if (stats.buyers.size > 0) {
    console.log("redirect buyers:");
    for (const rail of rails) {
      const did = [...stats.buyers]
        .filter(([what]) => what.startsWith(`${rail} `))
        .sort(([a], [b]) => a.localeCompare(b));
      console.log(
        `  ${rail.padEnd(10)} ${did.map(([what, n]) => `${what.slice(rail.length + 1)} ${n}`).join(", ") || "none"}`,
      );
    }
  }
  console.log("answers by status:");
  for (const [status, n] of [...stats.byStatus].sort()) console.log(`  ${status.padEnd(40)} ${n}`);
  console.log(
    `5xx: ${stats.serverErrors.length} (503 service_unavailable, the sandbox provider's 503 or a hosted page's 503, ` +
      `during the database restart: ${allowed.length}; ` +
      `503 provider_unavailable after a provider fault: ${providerAnswers.length}; any other: ${forbidden.length})`,
  );
  for (const error of forbidden.slice(0, 20))
    console.log(
      `  FORBIDDEN ${error.status} ${error.name ?? ""} ${error.path} ` +
        `at +${((error.at - started) / 1000).toFixed(1)}s ${error.requestId ?? ""}`,
    );
  console.log(`payments by state: ${states.map((row) => `${row.state} ${row.n}`).join(", ")}`);
  for (const method of new Set(redirectStates.map((row) => row.method))) {
    console.log(
      `  ${method}: ${redirectStates
        .filter((row) => row.method === method)
        .map((row) => `${row.state} ${row.n}`)
        .join(", ")}`,
    );
  }
  console.log(`webhook receiver answers: ${[...receiverAnswers].map(([mode, n]) => `${mode} ${n}`).join(", ")}`);
  console.log(
    `events: ${allEvents.length}; not delivered after recovery: ${undeliveredCount} ${JSON.stringify(undelivered)}; ` +
      `never received with a 2xx: ${neverReceived}`,
  );
  console.log(
    `deliveries per webhook-id (2xx answers): ${[...duplicates]
      .sort(([a], [b]) => a - b)
      .map(([times, n]) => `${times}x ${n}`)
      .join(", ")}`,
  );
  for (const line of metricsWatch.report()) console.log(line);
  if (stats.surprises.length > 0)
    console.log(
      `unexpected answers (first ${stats.surprises.length}):\n  ${stats.surprises.slice(0, 15).join("\n  ")}`,
    );
  console.log(formatAuditReport(report));
  console.log(`invariant violations: ${report.violationCount}`);
  const failed = forbidden.length > 0 || report.violationCount > 0 || undeliveredCount > 0 || neverReceived > 0;
  console.log(failed ? "CHAOS RUN FAILED" : "CHAOS RUN PASSED");
  return failed ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(error);
} finally {
  stopping = true;
  for (const entry of supervised) entry.child?.kill("SIGKILL");
  receiver.closeAllConnections();
  receiver.close();
  await providerFaults?.close().catch(() => {});
  await closeDatabase().catch(() => {});
  cluster.destroy();
}
process.exit(exitCode);
