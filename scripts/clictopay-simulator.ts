// `npm run clictopay-simulator [-- --json]`: the ClicToPay simulator (simulators/clictopay) as a
// process of its own, on a database of its own, standing in for ClicToPay (Monétique Tunisie):
// its REST interface under /payment/rest (register.do, registerPreAuth.do,
// getOrderStatusExtended.do, deposit.do, reverse.do, refund.do) and its payment page. A gateway
// points at it with CLICTOPAY_API_URL=<url>/payment/rest, and its merchants use the simulator's
// API user (printed) through `npm run merchant -- update --clictopay-username ...` with CLICTOPAY_PASSWORD.
import { createServer, type IncomingMessage } from "node:http";
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { readDatabaseSeal } from "../lib/db/database-seal";
import { createSimulatorTables } from "../lib/db/simulator-tables";
import { CLICTOPAY_SANDBOX_MERCHANT, handleClictopayRequest } from "../simulators/clictopay/clictopay-simulator";
import { HelpRequested, runCli, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run clictopay-simulator [-- --json]
  Serves the ClicToPay simulator on CLICTOPAY_SIMULATOR_HOST:CLICTOPAY_SIMULATOR_PORT (default 127.0.0.1:4500),
  on CLICTOPAY_SIMULATOR_DATABASE_URL or the PGlite directory CLICTOPAY_SIMULATOR_PGLITE_DIR, and prints the
  CLICTOPAY_API_URL and the API user and password it accepts. --json prints them as one JSON line.`;

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
  const database = await openDatabase({ databaseUrl: config.CLICTOPAY_SIMULATOR_DATABASE_URL, pgliteDir: config.CLICTOPAY_SIMULATOR_PGLITE_DIR });
  // A sealed database is a gateway's: ClicToPay's books never go there.
  if (await readDatabaseSeal(database.db)) {
    await database.close();
    throw new UsageError("CLICTOPAY_SIMULATOR_DATABASE_URL (or CLICTOPAY_SIMULATOR_PGLITE_DIR) is a gateway's database: give the ClicToPay simulator a database of its own.");
  }
  await createSimulatorTables(database);
  const origin = `http://${config.CLICTOPAY_SIMULATOR_HOST === "0.0.0.0" ? "localhost" : config.CLICTOPAY_SIMULATOR_HOST}:${config.CLICTOPAY_SIMULATOR_PORT}`;
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const answer = await handleClictopayRequest(database.db, await toRequest(incoming, `http://${incoming.headers.host ?? origin}`), "");
      outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
      outgoing.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => {
      outgoing.writeHead(500, { "content-type": "application/json" });
      outgoing.end('{"errorCode":"7","errorMessage":"System error"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(config.CLICTOPAY_SIMULATOR_PORT, config.CLICTOPAY_SIMULATOR_HOST, resolve));
  const printed = { apiUrl: `${origin}/payment/rest`, userName: CLICTOPAY_SANDBOX_MERCHANT.userName, password: CLICTOPAY_SANDBOX_MERCHANT.password };
  if (values.json) process.stdout.write(`${JSON.stringify(printed)}\n`);
  else {
    console.log(`ClicToPay simulator (${database.driver}) on ${origin}`);
    console.log(`  CLICTOPAY_API_URL=${printed.apiUrl}`);
    console.log(`  API user ${printed.userName}, password ${printed.password} (CLICTOPAY_PASSWORD)`);
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => void database.close().then(() => process.exit(0))));
  }
}

runCli(main, { usage: USAGE });
