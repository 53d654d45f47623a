// `npm run satim-simulator [-- --json]`: the SATIM ePay simulator (simulators/satim) as a process
// of its own, on a database of its own, standing in for SATIM: its REST interface under
// /payment/rest (register.do, confirmOrder.do, refund.do, getOrderStatusExtended.do) and its
// payment page. A gateway points at it with SATIM_API_URL=<url>/payment/rest, and its merchants
// use the simulator's credentials (printed) through `npm run merchant -- update --satim-...`.
import { getConfig } from "../lib/config";
import { handleSatimRequest, SATIM_SANDBOX_MERCHANT } from "../simulators/satim/satim-simulator";
import { runCli } from "./lib/cli";
import { serveSimulatorProcess } from "./lib/simulator-process";

const USAGE = `Usage: npm run satim-simulator [-- --json]
  Serves the SATIM ePay simulator on SATIM_SIMULATOR_HOST:SATIM_SIMULATOR_PORT (default 127.0.0.1:4200),
  on SATIM_SIMULATOR_DATABASE_URL or the PGlite directory SATIM_SIMULATOR_PGLITE_DIR, and prints the
  SATIM_API_URL and the merchant credentials it accepts. --json prints them as one JSON line.`;

async function main() {
  const config = getConfig();
  await serveSimulatorProcess({
    usage: USAGE,
    name: "SATIM",
    variables: "SATIM_SIMULATOR",
    database: { url: config.SATIM_SIMULATOR_DATABASE_URL, pgliteDir: config.SATIM_SIMULATOR_PGLITE_DIR },
    host: config.SATIM_SIMULATOR_HOST,
    port: config.SATIM_SIMULATOR_PORT,
    handle: (db, request) => handleSatimRequest(db, request, ""),
    failure: { contentType: "application/json", body: '{"errorCode":"7","errorMessage":"System error"}' },
    printed: (origin) => ({
      apiUrl: `${origin}/payment/rest`,
      terminalId: SATIM_SANDBOX_MERCHANT.terminalId,
      userName: SATIM_SANDBOX_MERCHANT.userName,
      password: SATIM_SANDBOX_MERCHANT.password,
    }),
    describe: (printed) => [`  SATIM_API_URL=${printed.apiUrl}`, `  terminal id ${printed.terminalId}, user ${printed.userName}, password ${printed.password} (SATIM_PASSWORD)`],
  });
}

runCli(main, { usage: USAGE });
