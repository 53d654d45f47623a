// Playwright's webServer: a fresh database, a production build when the sources changed,
// then `npm start` exactly as an operator runs it.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { E2E_DATABASE_URL } from "./env";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILD_ID = path.join(ROOT, ".next/BUILD_ID");
// What a production build is made from.
const SOURCES = ["app", "components", "lib", "messages", "public", "proxy.ts", "instrumentation.ts", "next.config.mjs", "postcss.config.mjs", "package-lock.json"];

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function buildIsStale(): boolean {
  if (!existsSync(BUILD_ID)) return true;
  const built = statSync(BUILD_ID).mtimeMs;
  return SOURCES.some((source) => newestChange(path.join(ROOT, source)) > built);
}

async function recreateDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`Refusing to recreate database ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end();
  }
}

async function main() {
  await recreateDatabase(E2E_DATABASE_URL);
  if (buildIsStale()) {
    console.log("[e2e] sources changed since the last build: next build");
    const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
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
