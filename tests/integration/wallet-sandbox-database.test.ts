import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { sealOrCheckDatabase } from "@/lib/db/database-seal";
import { sqlRows } from "@/lib/db/sql-rows";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { freePort } from "../support/spawned-gateway";

/**
 * `npm run wallet-sandbox` keeps its books apart, as `npm run card-simulator` does (one mechanism,
 * lib/db/simulator-database.ts): a gateway's database (sealed) is refused, and its own database
 * gets the simulators' tables only, never the gateway's.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs the wallet sandbox on `url` until it listens (then stops it) or exits. */
async function runWalletSandbox(
  url: string,
): Promise<{ code: number | null; stdout: string; stderr: string; listened: boolean }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/wallet-sandbox.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      WALLET_SANDBOX_DATABASE_URL: url,
      WALLET_SANDBOX_PORT: String(await freePort()),
      GATEWAY_SECRET: "",
      APP_ENV: "",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = { code: null as number | null, stdout: "", stderr: "", listened: false };
  child.stdout!.on("data", (chunk: Buffer) => {
    result.stdout += chunk.toString();
    if (!result.listened && result.stdout.includes("Sandbox wallet (postgres) on http://")) {
      result.listened = true;
      child.kill("SIGTERM");
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (result.stderr += chunk.toString()));
  const stuck = setTimeout(() => child.kill("SIGKILL"), 90_000);
  result.code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(stuck);
  return result;
}

async function tablesOf(url: string): Promise<{ gateway: string | null; books: string | null }> {
  const handle = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 1, gatewayTables: false });
  try {
    const [row] = sqlRows<{ gateway: string | null; books: string | null }>(
      await handle.db.execute(
        sql`select to_regclass('public.payments')::text as gateway,
          to_regclass('simulators.wallet_accounts')::text as books`,
      ),
    );
    return row!;
  } finally {
    await handle.close();
  }
}

describe("npm run wallet-sandbox", { timeout: 180_000 }, () => {
  it("refuses a sealed production database, as the card simulator does, and writes nothing into it", async () => {
    const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_wallet_on_production");
    const production = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
    try {
      await sealOrCheckDatabase(production.db, {
        environment: "production",
        gatewaySecret: randomBytes(32).toString("base64"),
      });
      const run = await runWalletSandbox(url);
      expect(run.listened).toBe(false);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        "WALLET_SANDBOX_DATABASE_URL (or WALLET_SANDBOX_PGLITE_DIR) is a gateway's database: " +
          "give the sandbox wallet a database of its own.",
      );
      expect((await tablesOf(url)).books).toBeNull();
    } finally {
      await production.close();
      await recreateDatabase(url, { dropOnly: true });
    }
  });

  it("gives its own database the simulators' tables only, never the gateway's", async () => {
    const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_wallet_own");
    try {
      const run = await runWalletSandbox(url);
      expect(run.listened).toBe(true);
      expect(await tablesOf(url)).toEqual({ gateway: null, books: "simulators.wallet_accounts" });
    } finally {
      await recreateDatabase(url, { dropOnly: true });
    }
  });
});
