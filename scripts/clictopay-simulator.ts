// `npm run clictopay-simulator [-- --json]`: the ClicToPay simulator (simulators/clictopay) as a
// process of its own, on a database of its own, standing in for ClicToPay (Monétique Tunisie):
// its REST interface under /payment/rest (register.do, registerPreAuth.do,
// getOrderStatusExtended.do, deposit.do, reverse.do, refund.do) and its payment page. A gateway
// points at it with CLICTOPAY_API_URL=<url>/payment/rest, and its merchants use the simulator's
// API user (printed) through `npm run merchant -- update --clictopay-username ...` with CLICTOPAY_PASSWORD.
import { getConfig } from "../lib/config";
import { CLICTOPAY_SANDBOX_MERCHANT, handleClictopayRequest } from "../simulators/clictopay/clictopay-simulator";
import { runCli } from "./lib/cli";
import { serveSimulatorProcess } from "./lib/simulator-process";

const USAGE = `Usage: npm run clictopay-simulator [-- --json]
  Serves the ClicToPay simulator on CLICTOPAY_SIMULATOR_HOST:CLICTOPAY_SIMULATOR_PORT (default 127.0.0.1:4500),
  on CLICTOPAY_SIMULATOR_DATABASE_URL or the PGlite directory CLICTOPAY_SIMULATOR_PGLITE_DIR, and prints the
  CLICTOPAY_API_URL and the API user and password it accepts. --json prints them as one JSON line.`;

async function main() {
  const config = getConfig();
  await serveSimulatorProcess({
    usage: USAGE,
    name: "ClicToPay",
    variables: "CLICTOPAY_SIMULATOR",
    database: { url: config.CLICTOPAY_SIMULATOR_DATABASE_URL, pgliteDir: config.CLICTOPAY_SIMULATOR_PGLITE_DIR },
    host: config.CLICTOPAY_SIMULATOR_HOST,
    port: config.CLICTOPAY_SIMULATOR_PORT,
    handle: (db, request) => handleClictopayRequest(db, request, ""),
    failure: { contentType: "application/json", body: '{"errorCode":"7","errorMessage":"System error"}' },
    printed: (origin) => ({ apiUrl: `${origin}/payment/rest`, userName: CLICTOPAY_SANDBOX_MERCHANT.userName, password: CLICTOPAY_SANDBOX_MERCHANT.password }),
    describe: (printed) => [`  CLICTOPAY_API_URL=${printed.apiUrl}`, `  API user ${printed.userName}, password ${printed.password} (CLICTOPAY_PASSWORD)`],
  });
}

runCli(main, { usage: USAGE });
