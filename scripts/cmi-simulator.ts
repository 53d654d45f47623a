// `npm run cmi-simulator [-- --json]`: the CMI simulator (simulators/cmi) as a process of its
// own, on a database of its own, standing in for CMI: its 3D Pay Hosting gate and payment page
// (/fim/est3Dgate), its API (/fim/api: CC5Request PostAuth, Void, Credit, ORDERSTATUS), and the
// callbacks it posts to the store's callbackUrl over HTTP. A gateway points at it with
// CMI_URL=<url>, and its merchants use the simulator's store (printed) through
// `npm run merchant -- update --cmi-client-id ... --cmi-api-user ...` with CMI_STORE_KEY and CMI_API_PASSWORD.
import { createServer, type IncomingMessage } from "node:http";
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { readDatabaseSeal } from "../lib/db/database-seal";
import { createSimulatorTables } from "../lib/db/simulator-tables";
import { CMI_SANDBOX_STORE, handleCmiRequest, sendOverHttp } from "../simulators/cmi/cmi-simulator";
import { HelpRequested, runCli, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run cmi-simulator [-- --json]
  Serves the CMI simulator on CMI_SIMULATOR_HOST:CMI_SIMULATOR_PORT (default 127.0.0.1:4300),
  on CMI_SIMULATOR_DATABASE_URL or the PGlite directory CMI_SIMULATOR_PGLITE_DIR, and prints the
  CMI_URL and the store it accepts (client id, store key, API user and password). --json prints them as one JSON line.`;

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(`${origin}${incoming.url ?? "/"}`, { method: incoming.method, headers, body: incoming.method === "GET" || incoming.method === "HEAD" ? undefined : body });
}

async function main() {
  const { values } = parseArgs({ options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } } });
  if (values.help) throw new HelpRequested(USAGE);
  const config = getConfig();
  const database = await openDatabase({ databaseUrl: config.CMI_SIMULATOR_DATABASE_URL, pgliteDir: config.CMI_SIMULATOR_PGLITE_DIR });
  // A sealed database is a gateway's: CMI's books never go there.
  if (await readDatabaseSeal(database.db)) {
    await database.close();
    throw new UsageError("CMI_SIMULATOR_DATABASE_URL (or CMI_SIMULATOR_PGLITE_DIR) is a gateway's database: give the CMI simulator a database of its own.");
  }
  await createSimulatorTables(database);
  const origin = `http://${config.CMI_SIMULATOR_HOST === "0.0.0.0" ? "localhost" : config.CMI_SIMULATOR_HOST}:${config.CMI_SIMULATOR_PORT}`;
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const answer = await handleCmiRequest(database.db, await toRequest(incoming, `http://${incoming.headers.host ?? origin}`), "", sendOverHttp);
      outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
      outgoing.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => {
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end("System error");
    });
  });
  await new Promise<void>((resolve) => server.listen(config.CMI_SIMULATOR_PORT, config.CMI_SIMULATOR_HOST, resolve));
  const printed = { cmiUrl: origin, ...CMI_SANDBOX_STORE };
  if (values.json) process.stdout.write(`${JSON.stringify(printed)}\n`);
  else {
    console.log(`CMI simulator (${database.driver}) on ${origin}`);
    console.log(`  CMI_URL=${printed.cmiUrl}`);
    console.log(`  client id ${printed.clientId}, API user ${printed.apiUser}; CMI_STORE_KEY='${printed.storeKey}', CMI_API_PASSWORD=${printed.apiPassword}`);
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => void database.close().then(() => process.exit(0))));
  }
}

runCli(main, { usage: USAGE });
