// Playwright's webServer: a fresh database, then `npm start` exactly as an operator runs it
// (which builds first when the sources changed).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { recreateDatabase } from "../../scripts/lib/recreate-database";
import { E2E_DATABASE_URL } from "./env";

const ROOT = path.resolve(import.meta.dirname, "../..");

async function main() {
  await recreateDatabase(E2E_DATABASE_URL);
  // npm start rebuilds first when any source is newer than the last build.
  const server = spawn("npm", ["start"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
  });
  // Everything the server prints also goes to a file the suite scans for leaked codes.
  const logFile = process.env.E2E_SERVER_LOG;
  if (logFile) mkdirSync(path.dirname(logFile), { recursive: true });
  const log = logFile ? createWriteStream(logFile) : null;
  for (const [stream, out] of [
    [server.stdout, process.stdout],
    [server.stderr, process.stderr],
  ] as const) {
    stream.on("data", (chunk: Buffer) => {
      out.write(chunk);
      log?.write(chunk);
    });
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
