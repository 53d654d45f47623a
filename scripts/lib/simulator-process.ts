import { createServer } from "node:http";
import { openDatabase, type Db } from "../../lib/db/client";
import { readDatabaseSeal } from "../../lib/db/database-seal";
import { serveFetchHandler } from "../../lib/http/serve-fetch-on-node";
import { createSimulatorTables } from "../../lib/db/simulator-tables";
import { UsageError } from "./cli";

/**
 * A provider's simulator as a process of its own (`npm run simulator -- <name> [--json]`), for
 * production rehearsals: on a database of its own (a gateway's sealed one is refused: the
 * provider's books never go there), answering over HTTP with the simulator's handler, printing
 * what a gateway and its merchants need, as one JSON line with --json.
 */
export interface SimulatorProcess<Printed extends Record<string, string>> {
  /** Prints `printed` as one JSON line (--json), else as lines for people. */
  json: boolean;
  /** As people name it: "ClicToPay". */
  name: string;
  /** The configuration's prefix of its variables: "CLICTOPAY_SIMULATOR". */
  variables: string;
  database: { url: string | undefined; pgliteDir: string };
  host: string;
  port: number;
  handle(db: Db, request: Request): Promise<Response>;
  /** What the provider answers when it fails itself. */
  failure: { contentType: string; body: string };
  printed(origin: string): Printed;
  /** The lines printed without --json, after the first. */
  describe(printed: Printed): string[];
}

export async function serveSimulatorProcess<Printed extends Record<string, string>>(
  simulator: SimulatorProcess<Printed>,
): Promise<void> {
  const database = await openDatabase({ databaseUrl: simulator.database.url, pgliteDir: simulator.database.pgliteDir });
  if (await readDatabaseSeal(database.db)) {
    await database.close();
    throw new UsageError(
      `${simulator.variables}_DATABASE_URL (or ${simulator.variables}_PGLITE_DIR) is a gateway's database: ` +
        `give the ${simulator.name} simulator a database of its own.`,
    );
  }
  await createSimulatorTables(database);
  const origin = `http://${simulator.host === "0.0.0.0" ? "localhost" : simulator.host}:${simulator.port}`;
  const server = createServer(
    serveFetchHandler(
      (request) => simulator.handle(database.db, request),
      (incoming) => `http://${incoming.headers.host ?? origin}`,
      (outgoing) => {
        outgoing.writeHead(500, { "content-type": simulator.failure.contentType });
        outgoing.end(simulator.failure.body);
      },
    ),
  );
  await new Promise<void>((resolve) => server.listen(simulator.port, simulator.host, resolve));
  const printed = simulator.printed(origin);
  if (simulator.json) process.stdout.write(`${JSON.stringify(printed)}\n`);
  else
    for (const line of [
      `${simulator.name} simulator (${database.driver}) on ${origin}`,
      ...simulator.describe(printed),
    ])
      console.log(line);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => void database.close().then(() => process.exit(0))));
  }
}
