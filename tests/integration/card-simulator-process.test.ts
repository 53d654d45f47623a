import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/sql-rows";
import { sealOrCheckDatabase } from "@/lib/db/database-seal";
import { sandboxSettings } from "@/lib/db/schema";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { freePort } from "../support/spawned-gateway";

/**
 * Issue 30: `npm run card-simulator` is Stripe's stand-in as a process of its own, on a database
 * of its own: it prints its keys (the same after a restart), serves Stripe.js at /v3 as
 * js.stripe.com does, and answers Stripe's wire format as api.stripe.com does.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "card-simulator-"));
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

interface PrintedKeys {
  apiUrl: string;
  stripeJsUrl: string;
  publishableKey: string;
  secretKey: string;
  webhookSecret: string;
}

async function startSimulator(port: number): Promise<{ keys: PrintedKeys; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/card-simulator.ts", "--json"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CARD_SIMULATOR_PORT: String(port),
      CARD_SIMULATOR_PGLITE_DIR: dataDir,
      CARD_SIMULATOR_DATABASE_URL: "",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!output.includes("\n")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the card simulator did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    keys: JSON.parse(output.split("\n")[0]!) as PrintedKeys,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      running.delete(child);
    },
  };
}

describe("npm run card-simulator", () => {
  it(
    "prints its keys, serves Stripe.js and Stripe's API, and keeps its keys across a restart on its own database",
    { timeout: 180_000 },
    async () => {
      const port = await freePort();
      const first = await startSimulator(port);
      const { keys } = first;
      expect(keys).toMatchObject({
        apiUrl: `http://localhost:${port}`,
        stripeJsUrl: `http://localhost:${port}/v3`,
        publishableKey: "pk_test_card_simulator",
      });
      expect(keys.secretKey).toMatch(/^sk_test_[0-9a-f]+_[0-9a-f]{40}$/);
      expect(keys.webhookSecret).toMatch(/^whsec_[0-9a-f]{40}$/);
      const base = `http://127.0.0.1:${port}`;

      // js.stripe.com/v3: the stand-in, which talks to api.stripe.com when loaded from js.stripe.com.
      const script = await fetch(`${base}/v3`);
      expect(script.headers.get("content-type")).toContain("javascript");
      expect(await script.text()).toContain("https://api.stripe.com/v1");

      // api.stripe.com: the secret key it printed is an account of its own; another is refused, as Stripe refuses it.
      const asAccount = await fetch(`${base}/v1/payment_intents/pi_unknown`, {
        headers: { authorization: `Bearer ${keys.secretKey}` },
      });
      expect(asAccount.status).toBe(404);
      expect(((await asAccount.json()) as { error: { code: string } }).error.code).toBe("resource_missing");
      const forged = await fetch(`${base}/v1/payment_intents/pi_unknown`, {
        headers: { authorization: `Bearer sk_test_00_${"0".repeat(40)}` },
      });
      expect(forged.status).toBe(401);
      // Stripe.js's own confirm, form-encoded with the publishable key, readable from any page (CORS).
      const confirm = await fetch(`${base}/v1/payment_intents/pi_unknown/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: keys.publishableKey,
          client_secret: "pi_unknown_secret_x",
          payment_method: "pm_none",
        }).toString(),
      });
      expect(confirm.status).toBeGreaterThanOrEqual(400);
      expect(confirm.headers.get("access-control-allow-origin")).toBe("*");

      await first.stop();
      const second = await startSimulator(port);
      expect(second.keys).toEqual(keys);
      await second.stop();

      // Its books and its secret, and none of the gateway's tables.
      const own = await openDatabase({ pgliteDir: dataDir, gatewayTables: false });
      try {
        const tables = sqlRows<{ gateway: string | null; books: string | null; secrets: number }>(
          await own.db.execute(
            sql`select to_regclass('public.payments')::text as gateway,
              to_regclass('simulators.card_provider_payment_intents')::text as books,
              (select count(*)::int from simulators.card_simulator_settings) as secrets`,
          ),
        );
        expect(tables).toEqual([{ gateway: null, books: "simulators.card_provider_payment_intents", secrets: 1 }]);
      } finally {
        await own.close();
      }
    },
  );
});

describe("npm run card-simulator pointed at a gateway's database", () => {
  it("refuses a sealed production database and writes no secret into it", { timeout: 120_000 }, async () => {
    const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_simulator_on_production");
    const production = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
    try {
      await sealOrCheckDatabase(production.db, {
        environment: "production",
        gatewaySecret: randomBytes(32).toString("base64"),
      });
      // Run as startSimulator runs it; killed if it serves anyway, so the test fails rather than hangs.
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/card-simulator.ts", "--json"], {
        cwd: ROOT,
        env: {
          ...process.env,
          CARD_SIMULATOR_DATABASE_URL: url,
          CARD_SIMULATOR_PORT: String(await freePort()),
          GATEWAY_SECRET: "",
          APP_ENV: "",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const result = { code: null as number | null, stdout: "", stderr: "" };
      child.stdout!.on("data", (chunk: Buffer) => (result.stdout += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (result.stderr += chunk.toString()));
      const serving = setTimeout(() => child.kill("SIGKILL"), 60_000);
      result.code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(serving);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim()).toContain("is a gateway's database: give the card simulator a database of its own.");
      expect(result.stdout).not.toContain("secretKey");
      expect(await production.db.select().from(sandboxSettings)).toEqual([]);
    } finally {
      await production.close();
      await recreateDatabase(url, { dropOnly: true });
    }
  });
});
