// `npm run cmi-simulator [-- --json]`: the CMI simulator (simulators/cmi) as a process of its
// own, on a database of its own, standing in for CMI: its 3D Pay Hosting gate and payment page
// (/fim/est3Dgate), its API (/fim/api: CC5Request PostAuth, Void, Credit, ORDERSTATUS), and the
// callbacks it posts to the store's callbackUrl over HTTP. A gateway points at it with
// CMI_URL=<url>, and its merchants use the simulator's store (printed) through
// `npm run merchant -- update --cmi-client-id ... --cmi-api-user ...` with CMI_STORE_KEY and CMI_API_PASSWORD.
import { getConfig } from "../lib/config";
import { CMI_SANDBOX_STORE, handleCmiRequest, sendOverHttp } from "../simulators/cmi/cmi-simulator";
import { runCli } from "./lib/cli";
import { serveSimulatorProcess } from "./lib/simulator-process";

const USAGE = `Usage: npm run cmi-simulator [-- --json]
  Serves the CMI simulator on CMI_SIMULATOR_HOST:CMI_SIMULATOR_PORT (default 127.0.0.1:4300),
  on CMI_SIMULATOR_DATABASE_URL or the PGlite directory CMI_SIMULATOR_PGLITE_DIR, and prints the
  CMI_URL and the store it accepts (client id, store key, API user and password). --json prints them as one JSON line.`;

async function main() {
  const config = getConfig();
  await serveSimulatorProcess({
    usage: USAGE,
    name: "CMI",
    variables: "CMI_SIMULATOR",
    database: { url: config.CMI_SIMULATOR_DATABASE_URL, pgliteDir: config.CMI_SIMULATOR_PGLITE_DIR },
    host: config.CMI_SIMULATOR_HOST,
    port: config.CMI_SIMULATOR_PORT,
    handle: (db, request) => handleCmiRequest(db, request, "", sendOverHttp),
    failure: { contentType: "text/plain", body: "System error" },
    printed: (origin) => ({ cmiUrl: origin, ...CMI_SANDBOX_STORE }),
    describe: (printed) => [
      `  CMI_URL=${printed.cmiUrl}`,
      `  client id ${printed.clientId}, API user ${printed.apiUser}; CMI_STORE_KEY='${printed.storeKey}', CMI_API_PASSWORD=${printed.apiPassword}`,
    ],
  });
}

runCli(main, { usage: USAGE });
