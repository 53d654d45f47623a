// `npm run chargily-simulator [-- --json]`: the Chargily Pay simulator (simulators/chargily) as a
// process of its own, on a database of its own, standing in for Chargily: its v2 API under
// /api/v2 (POST /checkouts, GET /checkouts/{id}, POST /checkouts/{id}/expire, GET /balance), its
// hosted checkout, and its signed webhooks posted over HTTP to each checkout's webhook_endpoint.
// A gateway points at it with CHARGILY_API_URL=<url>/api/v2, and its merchants use the simulator's
// secret key (printed) through `npm run merchant -- update --chargily-mode test`.
import { createServer, type IncomingMessage } from "node:http";
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { readDatabaseSeal } from "../lib/db/database-seal";
import { createSimulatorTables } from "../lib/db/simulator-tables";
import { CHARGILY_SANDBOX_SECRET_KEY, handleChargilyRequest } from "../simulators/chargily/chargily-simulator";
import { HelpRequested, runCli, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run chargily-simulator [-- --json]
  Serves the Chargily Pay simulator on CHARGILY_SIMULATOR_HOST:CHARGILY_SIMULATOR_PORT (default 127.0.0.1:4400),
  on CHARGILY_SIMULATOR_DATABASE_URL or the PGlite directory CHARGILY_SIMULATOR_PGLITE_DIR, and prints the
  CHARGILY_API_URL and the test secret key it accepts. --json prints them as one JSON line.`;

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
  const database = await openDatabase({ databaseUrl: config.CHARGILY_SIMULATOR_DATABASE_URL, pgliteDir: config.CHARGILY_SIMULATOR_PGLITE_DIR });
  // A sealed database is a gateway's: Chargily's books never go there.
  if (await readDatabaseSeal(database.db)) {
    await database.close();
    throw new UsageError("CHARGILY_SIMULATOR_DATABASE_URL (or CHARGILY_SIMULATOR_PGLITE_DIR) is a gateway's database: give the Chargily simulator a database of its own.");
  }
  await createSimulatorTables(database);
  const origin = `http://${config.CHARGILY_SIMULATOR_HOST === "0.0.0.0" ? "localhost" : config.CHARGILY_SIMULATOR_HOST}:${config.CHARGILY_SIMULATOR_PORT}`;
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const request = await toRequest(incoming, `http://${incoming.headers.host ?? origin}`);
      // Webhooks go over HTTP to the gateway, as Chargily posts them.
      const answer = await handleChargilyRequest(database.db, request, { base: "", sendWebhook: (webhook) => fetch(webhook) });
      outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
      outgoing.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => {
      outgoing.writeHead(500, { "content-type": "application/json" });
      outgoing.end('{"message":"Server Error"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(config.CHARGILY_SIMULATOR_PORT, config.CHARGILY_SIMULATOR_HOST, resolve));
  const printed = { apiUrl: `${origin}/api/v2`, mode: "test", secretKey: CHARGILY_SANDBOX_SECRET_KEY };
  if (values.json) process.stdout.write(`${JSON.stringify(printed)}\n`);
  else {
    console.log(`Chargily Pay simulator (${database.driver}) on ${origin}`);
    console.log(`  CHARGILY_API_URL=${printed.apiUrl}`);
    console.log(`  mode test, secret key ${printed.secretKey} (CHARGILY_SECRET_KEY)`);
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => void database.close().then(() => process.exit(0))));
  }
}

runCli(main, { usage: USAGE });
