import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "@/lib/db/client";
import { readDatabaseSeal, sealOrCheckDatabase, secretFingerprint } from "@/lib/db/database-seal";
import { databaseSeal, sandboxSettings, services } from "@/lib/db/schema";
import { onboardMerchant } from "@/lib/merchants/onboard-merchant";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { runScript, type ScriptResult } from "../support/run-script";

/**
 * Issue 30: a gateway database knows its environment and the gateway secret it was sealed with
 * (a fingerprint), and every process refuses, in one sentence, a database of the other
 * environment or sealed with another secret: the server (`npm start`), the worker, the merchant
 * CLI and the audit. The merchant CLI run without APP_ENV takes the database's environment.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const productionSecret = randomBytes(32).toString("base64");
const productionSettings = {
  PUBLIC_BASE_URL: "https://pay.example",
  WALLET_PROVIDER_URL: "https://wallet.example",
  WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
};

/** An environment without the variables set to undefined (unset in the child). */
function definedOnly(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ) as NodeJS.ProcessEnv;
}

async function memoryDatabase(): Promise<DatabaseHandle> {
  return openDatabase({ pgliteDir: "memory://" });
}

describe("sealing a database", () => {
  it("seals a fresh sandbox database with the secret it generates, keeping only a fingerprint of it", async () => {
    const database = await memoryDatabase();
    try {
      await sealOrCheckDatabase(database.db, { environment: "sandbox" });
      const [generated] = await database.db.select().from(sandboxSettings);
      const seal = await readDatabaseSeal(database.db);
      expect(seal).toEqual({ environment: "sandbox", secretFingerprint: secretFingerprint(generated!.value) });
      expect(seal!.secretFingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(seal!.secretFingerprint).not.toContain(
        Buffer.from(generated!.value, "base64").toString("hex").slice(0, 8),
      );
      // The next sandbox process on it passes, and finds the same secret.
      await expect(sealOrCheckDatabase(database.db, { environment: "sandbox" })).resolves.toEqual({
        environment: "sandbox",
      });
    } finally {
      await database.close();
    }
  });

  it("refuses the other environment and another secret, once sealed, writing nothing", async () => {
    const database = await memoryDatabase();
    try {
      await sealOrCheckDatabase(database.db, { environment: "production", gatewaySecret: productionSecret });
      await expect(sealOrCheckDatabase(database.db, { environment: "sandbox" })).rejects.toThrow(
        "This is a production database and this process runs as sandbox: set APP_ENV=production with that " +
          "gateway's GATEWAY_SECRET, or point DATABASE_URL (or PGLITE_DIR) at a sandbox database.",
      );
      await expect(
        sealOrCheckDatabase(database.db, {
          environment: "production",
          gatewaySecret: randomBytes(32).toString("base64"),
        }),
      ).rejects.toThrow(
        "This production database was sealed with another gateway secret: " +
          "set GATEWAY_SECRET to the one its gateway runs with.",
      );
      // A sandbox process never generated a secret into it.
      expect(await database.db.select().from(sandboxSettings)).toEqual([]);
      expect(await database.db.select().from(databaseSeal)).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it("seals a pre-seal database at first start, never a production-looking one without GATEWAY_SECRET", async () => {
    const database = await memoryDatabase();
    try {
      // A production database of the previous release: merchants, no generated secret, no seal.
      await onboardMerchant(database.db, { name: "Old Shop", countries: ["DZA"], origins: [] });
      await database.db.delete(sandboxSettings); // what production never had
      await database.db.delete(databaseSeal);
      await expect(sealOrCheckDatabase(database.db, { environment: "sandbox" })).rejects.toThrow(
        "This database has merchants but no seal yet, and this process has no GATEWAY_SECRET: " +
          "start its own gateway once (its APP_ENV and GATEWAY_SECRET) to seal it.",
      );
      expect(await database.db.select().from(sandboxSettings)).toEqual([]);
      expect(await readDatabaseSeal(database.db)).toBeUndefined();
      // Its own gateway seals it.
      await sealOrCheckDatabase(database.db, { environment: "production", gatewaySecret: productionSecret });
      expect(await readDatabaseSeal(database.db)).toEqual({
        environment: "production",
        secretFingerprint: secretFingerprint(productionSecret),
      });
    } finally {
      await database.close();
    }
  });

  it("lets the merchant CLI take the sealed environment instead of refusing it", async () => {
    const database = await memoryDatabase();
    try {
      await sealOrCheckDatabase(database.db, { environment: "production", gatewaySecret: productionSecret });
      const running = await sealOrCheckDatabase(
        database.db,
        { environment: "sandbox" },
        { adopt: (environment) => ({ environment, gatewaySecret: productionSecret }) },
      );
      expect(running).toEqual({ environment: "production", gatewaySecret: productionSecret });
    } finally {
      await database.close();
    }
  });
});

/**
 * A sandbox and a production process starting at once on a fresh database: one seals it, the
 * other is refused, and the sandbox's generated secret is written only when the sandbox won.
 */
async function raceToSeal(db: DatabaseHandle["db"], other: DatabaseHandle["db"]) {
  const outcomes = await Promise.allSettled([
    sealOrCheckDatabase(db, { environment: "sandbox" }),
    sealOrCheckDatabase(other, { environment: "production", gatewaySecret: productionSecret }),
  ]);
  const seal = await readDatabaseSeal(db);
  const generated = await db.select().from(sandboxSettings);
  expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
  const [sandbox, production] = outcomes;
  expect(seal?.environment).toBe(sandbox!.status === "fulfilled" ? "sandbox" : "production");
  if (production!.status === "fulfilled") expect(generated).toEqual([]);
}

describe("two processes sealing at once", () => {
  it("on PGlite: the production seal wins with no sandbox secret left in the database", async () => {
    const database = await memoryDatabase();
    try {
      await raceToSeal(database.db, database.db);
    } finally {
      await database.close();
    }
  });

  it("on PostgreSQL, over separate connections, round after round", { timeout: 60_000 }, async () => {
    const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_seal_race");
    const first = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
    const second = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
    try {
      for (let round = 0; round < 10; round++) {
        await first.db.delete(databaseSeal);
        await first.db.delete(sandboxSettings);
        await raceToSeal(first.db, second.db);
      }
    } finally {
      await first.close();
      await second.close();
      await recreateDatabase(url, { dropOnly: true });
    }
  });
});

describe("every process on a production database", () => {
  let productionUrl = "";
  let production: DatabaseHandle;
  const asProduction = { APP_ENV: "production", GATEWAY_SECRET: productionSecret, ...productionSettings };
  // The operator's shell without the gateway's environment: sandbox by default.
  const bare = {
    APP_ENV: undefined,
    GATEWAY_SECRET: undefined,
    PUBLIC_BASE_URL: undefined,
    WALLET_PROVIDER_URL: undefined,
    WALLET_PROVIDER_SECRET: undefined,
  };
  const sandboxRefusal = "This is a production database and this process runs as sandbox";
  const secretRefusal = "This production database was sealed with another gateway secret";

  beforeAll(async () => {
    productionUrl = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_sealed_production");
    production = await openDatabase({ databaseUrl: productionUrl, pgliteDir: "memory://", poolSize: 2 });
    await sealOrCheckDatabase(production.db, { environment: "production", gatewaySecret: productionSecret });
  });
  afterAll(async () => {
    await production?.close();
    if (productionUrl) await recreateDatabase(productionUrl, { dropOnly: true });
  });

  const run = (script: string, args: string[], env: Record<string, string | undefined>) =>
    runScript(script, args, {
      DATABASE_URL: productionUrl,
      LOG_LEVEL: "silent",
      DATABASE_START_WAIT_SECONDS: "0",
      ...env,
    });

  /** One sentence on stderr, nothing on stdout but what came before the database opened. */
  function expectRefusal(result: ScriptResult, sentence: string) {
    expect(result.code, result.stderr).not.toBe(0);
    const said = result.stderr.trim();
    expect(said).toContain(sentence);
    expect(said.split("\n")).toHaveLength(1);
    expect(said).not.toMatch(/\n\s+at /);
  }

  it(
    "npm start refuses it as sandbox, and with another secret, before building or serving",
    { timeout: 120_000 },
    async () => {
      const serve = (env: Record<string, string | undefined>) =>
        new Promise<ScriptResult>((resolve) => {
          const child = spawn(process.execPath, ["server/serve.mjs"], {
            cwd: ROOT,
            env: definedOnly({
              ...process.env,
              DATABASE_URL: productionUrl,
              LOG_LEVEL: "silent",
              DATABASE_START_WAIT_SECONDS: "0",
              ...bare,
              ...env,
            }),
          });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
          child.on("close", (code) => resolve({ code, stdout, stderr }));
        });
      const [asSandbox, withAnotherSecret] = await Promise.all([
        serve({}),
        serve({ ...asProduction, GATEWAY_SECRET: randomBytes(32).toString("base64") }),
      ]);
      expectRefusal(asSandbox, sandboxRefusal);
      expectRefusal(withAnotherSecret, secretRefusal);
      for (const result of [asSandbox, withAnotherSecret]) expect(result.stdout).not.toMatch(/Building|listening/);
    },
  );

  it("the worker refuses it as sandbox and with another secret", { timeout: 120_000 }, async () => {
    const [asSandbox, withAnotherSecret] = await Promise.all([
      run("scripts/worker.ts", [], bare),
      run("scripts/worker.ts", [], { ...asProduction, GATEWAY_SECRET: randomBytes(32).toString("base64") }),
    ]);
    expectRefusal(asSandbox, sandboxRefusal);
    expectRefusal(withAnotherSecret, secretRefusal);
  });

  it(
    "the audit refuses it as sandbox and with another secret, and audits it with its own",
    { timeout: 120_000 },
    async () => {
      const [asSandbox, withAnotherSecret, withItsOwn] = await Promise.all([
        run("scripts/audit.ts", [], bare),
        run("scripts/audit.ts", [], { ...asProduction, GATEWAY_SECRET: randomBytes(32).toString("base64") }),
        run("scripts/audit.ts", [], asProduction),
      ]);
      expectRefusal(asSandbox, sandboxRefusal);
      expectRefusal(withAnotherSecret, secretRefusal);
      expect(withItsOwn.code, withItsOwn.stderr).toBe(0);
    },
  );

  it(
    "the merchant CLI takes production from the database: without its settings it refuses and writes nothing; " +
      "with them it onboards as production",
    { timeout: 120_000 },
    async () => {
      const create = [
        "create",
        "--name",
        "Risky Shop",
        "--country",
        "DZA",
        "--webhook-url",
        "http://10.0.0.5/hooks",
        "--json",
      ];
      const [withoutSettings, withAnotherSecret, plainHttpHook] = await Promise.all([
        run("scripts/merchant.ts", create, bare),
        run("scripts/merchant.ts", create, {
          ...bare,
          ...productionSettings,
          GATEWAY_SECRET: randomBytes(32).toString("base64"),
        }),
        // No APP_ENV, but the production gateway's secret and settings: production's rules apply.
        run("scripts/merchant.ts", create, { ...bare, ...productionSettings, GATEWAY_SECRET: productionSecret }),
      ]);
      expectRefusal(
        withoutSettings,
        "This is a production database: run with its gateway's settings (GATEWAY_SECRET, PUBLIC_BASE_URL, " +
          "WALLET_PROVIDER_URL, WALLET_PROVIDER_SECRET missing or invalid for APP_ENV=production).",
      );
      expectRefusal(withAnotherSecret, secretRefusal);
      expect(plainHttpHook.code).toBe(1);
      expect(plainHttpHook.stderr).toMatch(/https/);
      // Nothing was written: no merchant, and above all no sandbox secret.
      expect(await production.db.select().from(services)).toEqual([]);
      expect(await production.db.select().from(sandboxSettings)).toEqual([]);

      const created = await run(
        "scripts/merchant.ts",
        ["create", "--name", "Atlas Shop", "--country", "DZA", "--card-provider-key", "pk_live_atlas", "--json"],
        {
          ...bare,
          ...productionSettings,
          GATEWAY_SECRET: productionSecret,
        },
      );
      expect(created.code, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({
        name: "Atlas Shop",
        cardProviderPublishableKey: "pk_live_atlas",
      });
      expect(await production.db.select().from(sandboxSettings)).toEqual([]);
    },
  );
});
