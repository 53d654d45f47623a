// `npm run simulator -- <name> [--json]`: a redirect provider's simulator (simulators/<name>, listed
// in simulators/simulator-list.ts) as a process of its own, on a database of its own, standing in
// for the provider: its API and payment page over HTTP, its callbacks and webhooks posted over
// HTTP to the gateway. It prints the variable that points a gateway at it (SATIM_API_URL=...) and
// the credentials its merchants set with `npm run merchant -- update ...`.
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import type { RedirectSimulator } from "../simulators/redirect-simulator";
import { REDIRECT_SIMULATORS } from "../simulators/simulator-list";
import { HelpRequested, runCli, UsageError } from "./lib/cli";
import { serveSimulatorProcess } from "./lib/simulator-process";

const NAMES = Object.keys(REDIRECT_SIMULATORS);
const USAGE = `Usage: npm run simulator -- <name> [--json]
  <name>: ${NAMES.join(", ")}. Serves that provider's simulator on <PREFIX>_SIMULATOR_HOST:<PREFIX>_SIMULATOR_PORT,
  on <PREFIX>_SIMULATOR_DATABASE_URL or the PGlite directory <PREFIX>_SIMULATOR_PGLITE_DIR, and prints
${Object.values(REDIRECT_SIMULATORS)
  .map((simulator) => `  ${simulator.process.prefix} (${simulator.title}): ${simulator.process.prints};`)
  .join("\n")}
  --json prints them as one JSON line.`;

const isName = (name: string): name is keyof typeof REDIRECT_SIMULATORS => Object.hasOwn(REDIRECT_SIMULATORS, name);

/** `<PREFIX>_SIMULATOR_*`, as the provider's declaration adds them to the configuration (simulatorProcessSettings). */
function processSettings(prefix: string) {
  const config: Readonly<Record<string, unknown>> = getConfig();
  const setting = (name: string) => config[`${prefix}_SIMULATOR_${name}`];
  const [host, port, url, pgliteDir] = [
    setting("HOST"),
    setting("PORT"),
    setting("DATABASE_URL"),
    setting("PGLITE_DIR"),
  ];
  if (
    typeof host !== "string" ||
    typeof port !== "number" ||
    typeof pgliteDir !== "string" ||
    (url !== undefined && typeof url !== "string")
  ) {
    throw new Error(
      `${prefix}_SIMULATOR_* are not in the configuration: ` +
        `its declaration adds them with simulatorProcessSettings("${prefix}", ...)`,
    );
  }
  return { host, port, database: { url, pgliteDir } };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) throw new HelpRequested(USAGE);
  const [name, ...rest] = positionals;
  if (!name || rest.length > 0 || !isName(name)) throw new UsageError(`name one simulator: ${NAMES.join(", ")}`);
  const simulator: RedirectSimulator = REDIRECT_SIMULATORS[name];
  await serveSimulatorProcess({
    ...processSettings(simulator.process.prefix),
    json: values.json,
    name: simulator.title,
    variables: `${simulator.process.prefix}_SIMULATOR`,
    // As a process, its callbacks and webhooks go over HTTP to the gateway, as the provider's do.
    handle: (db, request) => simulator.handle(db, request, { base: "", toGateway: (outgoing) => fetch(outgoing) }),
    failure: simulator.failure,
    printed: simulator.process.printed,
    describe: simulator.process.describe,
  });
}

runCli(main, { usage: USAGE });
