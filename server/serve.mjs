// `npm start`: prepares (server/start.ts under tsx: build when stale, migrate, demo merchant),
// then serves with Node's cluster module: one server per core (WEB_CONCURRENCY overrides; the
// embedded PGlite database admits one process), all on one port, each answering through
// server/door.mjs: /api and the signed-in console pages through the lanes' bundle, everything
// else through Next.js. Plain
// JavaScript, so no TypeScript launcher stays resident beside the servers.
// Each server runs with the V8 heap settings of server/server-heap.mjs (resident memory bounded,
// CPU per request unchanged).
//
// The primary only supervises: it forks the servers, gives exactly one of them the background
// jobs (GATEWAY_JOB_RUNNER=1), replaces one that dies, restarts them one by one on SIGHUP
// (each replacement listens before its predecessor stops), and on SIGTERM or SIGINT stops
// them gracefully and exits 0 once they have. Each server on SIGTERM stops accepting, answers
// what it has in flight (with `Connection: close`), lets its idle keep-alive connections run
// out, stops its jobs (deliveries in flight finish and record their results, which gives their
// leases back), closes its database pool and exits 0, all within GATEWAY_SHUTDOWN_TIMEOUT_MS.
import cluster from "node:cluster";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";
import net from "node:net";
import v8 from "node:v8";
import { pathToFileURL } from "node:url";
import { createDoor, loadLanes } from "./door.mjs";
import { markPeerStamping } from "./stamp-peer.mjs";
import { describeServerHeap, serverExecArgv } from "./server-heap.mjs";

// How long a server waits for instrumentation.ts's register() before giving up (a loaded machine
// takes seconds; a register() that never runs would leave the server silent for good).
const REGISTER_TIMEOUT_MS = 120_000;

const log = (message) => console.log(`[gateway ${cluster.isPrimary ? "primary" : `server ${process.pid}`}] ${message}`);

if (cluster.isPrimary) primary();
else await server(JSON.parse(process.argv.at(-1)));

/**
 * The settings the servers need, as lib/config validated them in server/start.ts (which writes
 * them to the file it is given): the configuration has one reader, and its defaults one home.
 */
function prepareAndReadSettings() {
  const dir = mkdtempSync(path.join(tmpdir(), "gateway-start-"));
  const settingsFile = path.join(dir, "settings.json");
  try {
    const prepare = spawnSync(
      process.execPath,
      ["--import", "tsx", "server/start.ts", "--settings-out", settingsFile, ...process.argv.slice(2)],
      {
        stdio: "inherit",
      },
    );
    if (prepare.status !== 0) process.exit(prepare.status ?? 1);
    return JSON.parse(readFileSync(settingsFile, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function primary() {
  const settings = prepareAndReadSettings();
  const SHUTDOWN_TIMEOUT_MS = settings.shutdownTimeoutMs;
  const count = settings.processes;
  // By default the primary accepts every connection and hands it to a server over IPC, which
  // balances several servers; one server accepts its connections itself. With a client that
  // opens a connection per request (PHP's default, nginx without upstream keep-alive), the
  // hand-off cost the primary 0.06 ms a request and the pair 0.08 ms (about 8 %).
  // NODE_CLUSTER_SCHED_POLICY, when set, still decides.
  if (count === 1 && !process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  // Each server gets the settings as its last argument.
  cluster.setupPrimary({
    execArgv: serverExecArgv(process.env.NODE_OPTIONS, process.execArgv),
    args: [JSON.stringify(settings)],
  });
  /** @type {Map<number, { jobRunner: boolean, retiring: boolean }>} worker id → role */
  const roles = new Map();
  let stopping = false;
  let failures = 0;
  let exitCode = 0;
  const recentCrashes = [];

  const fork = (jobRunner) => {
    const worker = cluster.fork({ GATEWAY_JOB_RUNNER: jobRunner ? "1" : "0", GATEWAY_CLUSTER: "1" });
    roles.set(worker.id, { jobRunner, retiring: false });
    return worker;
  };
  for (let index = 0; index < count; index += 1) fork(index === 0);

  cluster.on("exit", (worker, code, signal) => {
    const role = roles.get(worker.id);
    roles.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (roles.size === 0) process.exit(exitCode);
      return;
    }
    if (role?.retiring) return;
    // An unplanned exit: replace it, unless servers keep dying at start (a broken deploy).
    log(`server ${worker.process.pid} exited (${signal ?? code}); starting a replacement`);
    const now = Date.now();
    recentCrashes.push(now);
    while (recentCrashes[0] < now - 60_000) recentCrashes.shift();
    if (recentCrashes.length > 5 * count) {
      log("servers keep exiting; giving up");
      failures += 1;
      stop(1);
      return;
    }
    fork(role?.jobRunner ?? false);
  });

  const stop = (code = 0, reason = "") => {
    if (stopping) return;
    stopping = true;
    if (reason) log(`stopping (${reason})`);
    exitCode = code;
    if (roles.size === 0) process.exit(exitCode);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    // The servers bound their own shutdown; this only guards against one that hangs.
    setTimeout(() => {
      log("servers did not stop in time; killing them");
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS + 10_000).unref();
  };
  process.on("SIGTERM", () => stop(failures ? 1 : 0, "SIGTERM"));
  process.on("SIGINT", () => stop(failures ? 1 : 0, "SIGINT"));

  // Rolling restart: each server is replaced by a new one that listens before the old one stops.
  let restarting = false;
  process.on("SIGHUP", async () => {
    if (restarting || stopping) return;
    restarting = true;
    log("rolling restart");
    for (const [id, role] of [...roles]) {
      const old = cluster.workers?.[id];
      if (!old || stopping) continue;
      const replacement = fork(role.jobRunner);
      const listening = await new Promise((resolve) => {
        replacement.once("listening", () => resolve(true));
        replacement.once("exit", () => resolve(false));
      });
      if (!listening) {
        log("a replacement failed to start; keeping the running servers");
        break;
      }
      role.retiring = true;
      old.process.kill("SIGTERM");
      await new Promise((resolve) => old.once("exit", resolve));
    }
    restarting = false;
    log("rolling restart done");
  });
}

async function server(settings) {
  const SHUTDOWN_TIMEOUT_MS = settings.shutdownTimeoutMs;
  // Read afresh at each limit V8 sets, so setting it before the app loads is in time.
  const growth = settings.heapGrowthPercent;
  if (growth > 0) v8.setFlagsFromString(`--heap-growing-percent=${growth}`);
  const { port, hostname } = settings;
  // instrumentation.ts's register() mounts the sandbox's simulators and starts the jobs. Next.js
  // runs it in the background of prepare() and holds its own requests until it is done, but not
  // the API lane's: this server listens only once register() has run (it resolves this).
  // A failed or late register() ends this process: Next.js's own uncaughtException handler
  // would only print it, and a cluster worker held by its IPC channel would then never listen.
  const registered = new Promise((resolve, reject) => {
    globalThis.gatewayRegistered = { resolve, reject };
    setTimeout(
      () => reject(new Error(`instrumentation's register() did not run within ${REGISTER_TIMEOUT_MS / 1000} s`)),
      REGISTER_TIMEOUT_MS,
    ).unref();
  }).catch((error) => {
    log(`instrumentation's register() failed: ${error?.message ?? error}`);
    process.exit(1);
  });
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname, port });
  await app.prepare();
  await registered;
  const handle = app.getRequestHandler();
  // /api and the signed-in console pages through the lanes, everything else through Next.js
  // (server/door.mjs). The bundle is server/build-lanes.mjs's (GATEWAY_LANES_BUNDLE names
  // another, to pair two lane builds).
  const lanes = await loadLanes(pathToFileURL(path.resolve(settings.lanesBundle)).href);
  const door = createDoor({ lanes: () => lanes, handleNext: handle });

  let draining = false;
  let inFlight = 0;
  markPeerStamping();
  const httpServer = http.createServer((request, response) => {
    inFlight += 1;
    response.once("close", () => {
      inFlight -= 1;
    });
    // While stopping: answer, then have the client reconnect (to another server).
    if (draining) response.setHeader("connection", "close");
    door(request, response);
  });
  httpServer.keepAliveTimeout = 5_000;
  const heap = describeServerHeap(process.env.NODE_OPTIONS, process.execArgv, growth);
  httpServer.listen(port, hostname, () => {
    const jobs = process.env.GATEWAY_JOB_RUNNER === "1" ? ", running the background jobs" : "";
    log(`listening on ${hostname}:${port} (${heap})${jobs}`);
  });

  let stopped = false;
  const shutdown = async () => {
    if (stopped) return;
    stopped = true;
    draining = true;
    const deadline = Date.now() + SHUTDOWN_TIMEOUT_MS;
    // Stop accepting, but unlike http.Server#close do not cut idle keep-alive connections: a
    // client may be writing its next request on one right now. Each gets its answer with
    // `Connection: close`, or runs out at keepAliveTimeout as usual.
    const closed = new Promise((resolve) => net.Server.prototype.close.call(httpServer, resolve));
    await Promise.race([
      closed,
      new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now() - 1_000))),
    ]);
    if (inFlight > 0) log(`${inFlight} requests still in flight at the shutdown bound`);
    httpServer.closeAllConnections();
    // Background jobs and the database pool live in the Next.js bundle (instrumentation.ts).
    const stopGateway = globalThis.gatewayShutdown;
    if (typeof stopGateway === "function") {
      await Promise.race([
        stopGateway(),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
      ]);
    }
    await app.close?.().catch(() => {});
    log("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  // The primary asked to stop (cluster disconnect) or died: stop the same way.
  process.on("disconnect", shutdown);
}
