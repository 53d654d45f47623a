// `npm run chargily-simulator [-- --json]`: the Chargily Pay simulator (simulators/chargily) as a
// process of its own, on a database of its own, standing in for Chargily: its v2 API under
// /api/v2 (POST /checkouts, GET /checkouts/{id}, POST /checkouts/{id}/expire, GET /balance), its
// hosted checkout, and its signed webhooks posted over HTTP to each checkout's webhook_endpoint.
// A gateway points at it with CHARGILY_API_URL=<url>/api/v2, and its merchants use the simulator's
// secret key (printed) through `npm run merchant -- update --chargily-mode test`.
import { getConfig } from "../lib/config";
import { CHARGILY_SANDBOX_SECRET_KEY, handleChargilyRequest } from "../simulators/chargily/chargily-simulator";
import { runCli } from "./lib/cli";
import { serveSimulatorProcess } from "./lib/simulator-process";

const USAGE = `Usage: npm run chargily-simulator [-- --json]
  Serves the Chargily Pay simulator on CHARGILY_SIMULATOR_HOST:CHARGILY_SIMULATOR_PORT (default 127.0.0.1:4400),
  on CHARGILY_SIMULATOR_DATABASE_URL or the PGlite directory CHARGILY_SIMULATOR_PGLITE_DIR, and prints the
  CHARGILY_API_URL and the test secret key it accepts. --json prints them as one JSON line.`;

async function main() {
  const config = getConfig();
  await serveSimulatorProcess({
    usage: USAGE,
    name: "Chargily",
    variables: "CHARGILY_SIMULATOR",
    database: { url: config.CHARGILY_SIMULATOR_DATABASE_URL, pgliteDir: config.CHARGILY_SIMULATOR_PGLITE_DIR },
    host: config.CHARGILY_SIMULATOR_HOST,
    port: config.CHARGILY_SIMULATOR_PORT,
    // Webhooks go over HTTP to the gateway, as Chargily posts them.
    handle: (db, request) => handleChargilyRequest(db, request, { base: "", sendWebhook: (webhook) => fetch(webhook) }),
    failure: { contentType: "application/json", body: '{"message":"Server Error"}' },
    printed: (origin) => ({ apiUrl: `${origin}/api/v2`, mode: "test", secretKey: CHARGILY_SANDBOX_SECRET_KEY }),
    describe: (printed) => [`  CHARGILY_API_URL=${printed.apiUrl}`, `  mode test, secret key ${printed.secretKey} (CHARGILY_SECRET_KEY)`],
  });
}

runCli(main, { usage: USAGE });
