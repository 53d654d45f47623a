// `npm run dev`: the same door as `npm start` (server/door.mjs), with Next.js's development
// server (compiling on demand, hot reload) behind it: /api through the API lane, the signed-in
// console pages through the console lane and the hosted buyer pages through the hosted lane, from
// the lanes' bundle built at start and rebuilt on edit (server/watch-lanes.mjs: reload the page
// after an edit), everything else (not found, errors, the docs) through Next.js, hot reload included.
//
// The islands (components/islands) are built at start and rebuilt when one of their files
// changes. Plain JavaScript, like server/serve.mjs. PORT (default 3000) or -p/--port, HOST or
// -H/--hostname (default: every interface), and --webpack instead of Turbopack, as `next dev` took them.
import { watch } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildIslands, ISLANDS_SOURCE_DIR } from "../scripts/build-islands.mjs";
import { createDoor } from "./door.mjs";
import { rebuildAfterBursts } from "./rebuild-after-bursts.mjs";
import { markPeerStamping } from "./stamp-peer.mjs";
import { watchLanes } from "./watch-lanes.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SHUTDOWN_TIMEOUT_MS = 5_000;
// How long the server waits for instrumentation.ts's register() before it listens anyway.
const REGISTER_TIMEOUT_MS = 120_000;

const log = (message) => console.log(`[dev] ${message}`);
const islandsList = (manifest) =>
  Object.entries(manifest)
    .map(([name, file]) => `${name} (${file})`)
    .join(", ") || "none";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", short: "p" },
    hostname: { type: "string", short: "H" },
    webpack: { type: "boolean" },
  },
});
const port = Number(options.port || process.env.PORT || 3000);
const hostname = options.hostname || process.env.HOST || undefined;
// As `next dev` sets it: the gateway's config and Next.js read it.
process.env.NODE_ENV = "development";

log(`islands built: ${islandsList(await buildIslands())}`);
const watcher = watchIslands();
const lanes = await watchLanes(log);
log("lanes built (/api and the console pages, as npm start serves them)");

// As in server/serve.mjs: the lanes' requests need register()'s mounts (the sandbox's
// simulators), which Next.js runs in the background of its preparation.
const registered = new Promise((resolve, reject) => {
  globalThis.gatewayRegistered = { resolve, reject };
  setTimeout(
    () => reject(new Error(`instrumentation's register() did not run within ${REGISTER_TIMEOUT_MS / 1000} s`)),
    REGISTER_TIMEOUT_MS,
  ).unref();
});
// Made before Next.js, which is handed it (`httpServer`, an option of next() its custom-server
// guide documents): Next.js then answers the upgrades of its HMR websocket (/_next/hmr) on it
// itself, from the first request it serves on. A tab left open across a restart that reconnects
// before any request finds no handler yet; Next's client then reloads the page, and that
// request installs it.
const httpServer = http.createServer();
const { default: next } = await import("next");
const app = next({
  dev: true,
  dir: ROOT,
  hostname: hostname ?? "localhost",
  port,
  webpack: options.webpack,
  httpServer,
});
await app.prepare();
await registered.catch((error) => log(`instrumentation's register() failed: ${error?.message ?? error}`));
const handle = app.getRequestHandler();

markPeerStamping();
httpServer.on("request", createDoor({ lanes: lanes.current, handleNext: handle }));
httpServer.on("error", (error) => {
  console.error(
    `[dev] ${error.code === "EADDRINUSE" ? `port ${port} is in use (PORT or -p chooses another)` : error.message}`,
  );
  process.exit(1);
});
httpServer.listen(port, hostname, () =>
  log(`ready on http://${hostname ?? "localhost"}:${port} (the door of npm start: server/door.mjs)`),
);

/** Rebuilds the islands after a burst of changes under components/islands. */
function watchIslands() {
  const islands = rebuildAfterBursts(async () => {
    try {
      log(`islands rebuilt: ${islandsList(await buildIslands())}`);
    } catch {
      // esbuild printed the errors; the last good build stays in place.
      log("islands not rebuilt (errors above); serving the last build");
    }
  });
  return watch(ISLANDS_SOURCE_DIR, { recursive: true }, (_event, file) => {
    // Only sources change the build (not an editor's swap file, nor the islands' tests).
    if (file && (!file.endsWith(".ts") || file.endsWith(".test.ts"))) return;
    islands.changed();
  });
}

let stopping = false;
const shutdown = async () => {
  if (stopping) process.exit(1); // a second Ctrl+C: now
  stopping = true;
  watcher.close();
  await lanes.close();
  httpServer.close();
  httpServer.closeAllConnections();
  // Background jobs and the database (an embedded PGlite must be closed cleanly) live in the
  // Next.js bundle (instrumentation.ts).
  const stopGateway = globalThis.gatewayShutdown;
  const bound = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref());
  if (typeof stopGateway === "function") await Promise.race([stopGateway().catch(() => {}), bound]);
  await Promise.race([app.close?.().catch(() => {}), bound]);
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
