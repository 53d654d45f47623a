import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { sealOrCheckDatabase } from "@/lib/db/database-seal";
import { sqlRows } from "@/lib/db/sql-rows";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { freePort } from "../support/spawned-gateway";

/**
 * `npm run simulator -- clictopay` is ClicToPay's stand-in as a process of its own (for production
 * rehearsals: CLICTOPAY_API_URL=<apiUrl>): it prints where it answers and the API user it
 * accepts, and speaks ClicToPay's REST calls (millimes, currency 788) and payment page over HTTP.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "clictopay-simulator-"));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

describe("npm run simulator -- clictopay", () => {
  it("registers a pre-authorization, takes a card on its page, deposits part of the hold over HTTP", async () => {
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "scripts/simulator.ts", "clictopay", "--json"], {
      cwd: ROOT,
      env: {
        ...process.env,
        CLICTOPAY_SIMULATOR_PORT: String(port),
        CLICTOPAY_SIMULATOR_PGLITE_DIR: dataDir,
        CLICTOPAY_SIMULATOR_DATABASE_URL: "",
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes("\n")) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the ClicToPay simulator did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const printed = JSON.parse(output.split("\n")[0]!) as { apiUrl: string; userName: string; password: string };
    expect(printed).toEqual({
      apiUrl: `http://127.0.0.1:${port}/payment/rest`,
      userName: "SANDBOX_CTP_MERCHANT",
      password: "sandbox-ctp-password",
    });
    const credentials = { userName: printed.userName, password: printed.password };

    const denied = await (
      await fetch(`${printed.apiUrl}/registerPreAuth.do`, form({ ...credentials, password: "wrong" }))
    ).json();
    expect(denied).toEqual({ errorCode: "5", errorMessage: "Access denied" });
    const registered = await (
      await fetch(
        `${printed.apiUrl}/registerPreAuth.do`,
        form({
          ...credentials,
          orderNumber: "REHEARSE01",
          amount: "12345",
          currency: "788",
          returnUrl: "https://gateway.example/back",
          language: "fr",
        }),
      )
    ).json();
    expect(registered).toMatchObject({
      orderId: expect.any(String),
      formUrl: expect.stringContaining(`http://127.0.0.1:${port}/payment/merchants/sandbox/payment.html?mdOrder=`),
    });
    const page = await fetch(registered.formUrl);
    expect(await page.text()).toContain("12.345 TND");
    const paid = await fetch(
      registered.formUrl,
      form({ action: "pay", cardNumber: "5555555555554444", expiry: "12/34", cvc: "123" }),
    );
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`https://gateway.example/back?orderId=${registered.orderId}`);
    const held = await (
      await fetch(`${printed.apiUrl}/getOrderStatusExtended.do`, form({ ...credentials, orderId: registered.orderId }))
    ).json();
    expect(held).toMatchObject({
      errorCode: "0",
      orderStatus: 1,
      orderNumber: "REHEARSE01",
      paymentAmountInfo: { approvedAmount: 12345, depositedAmount: 0 },
    });
    expect(
      await (
        await fetch(
          `${printed.apiUrl}/deposit.do`,
          form({ ...credentials, orderId: registered.orderId, amount: "10000" }),
        )
      ).json(),
    ).toMatchObject({ errorCode: "0" });
    const deposited = await (
      await fetch(`${printed.apiUrl}/getOrderStatusExtended.do`, form({ ...credentials, orderId: registered.orderId }))
    ).json();
    expect(deposited).toMatchObject({
      orderStatus: 2,
      cardAuthInfo: { maskedPan: "555555**4444" },
      paymentAmountInfo: { depositedAmount: 10000 },
    });
  }, 120_000);

  it("refuses a sealed production database and creates nothing in it", { timeout: 120_000 }, async () => {
    const url = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_clictopay_simulator_on_production");
    const production = await openDatabase({ databaseUrl: url, pgliteDir: "memory://", poolSize: 2 });
    try {
      await sealOrCheckDatabase(production.db, {
        environment: "production",
        gatewaySecret: randomBytes(32).toString("base64"),
      });
      const refused = spawn(process.execPath, ["--import", "tsx", "scripts/simulator.ts", "clictopay", "--json"], {
        cwd: ROOT,
        env: {
          ...process.env,
          CLICTOPAY_SIMULATOR_DATABASE_URL: url,
          CLICTOPAY_SIMULATOR_PORT: String(await freePort()),
          APP_ENV: "",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      refused.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      refused.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      // Killed if it serves anyway, so the test fails rather than hangs.
      const serving = setTimeout(() => refused.kill("SIGKILL"), 60_000);
      const code = await new Promise<number | null>((resolve) => refused.on("close", resolve));
      clearTimeout(serving);
      expect(code).not.toBe(0);
      expect(stderr.trim()).toContain("is a gateway's database: give the ClicToPay simulator a database of its own.");
      expect(stdout).not.toContain("password");
      const tables = sqlRows<{ orders: string | null }>(
        await production.db.execute(sql`select to_regclass('simulators.clictopay_orders')::text as orders`),
      );
      expect(tables).toEqual([{ orders: null }]);
    } finally {
      await production.close();
      await recreateDatabase(url, { dropOnly: true });
    }
  });
});
