import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { paidIntent } from "../support/payments";
import { runScript } from "../support/run-script";
import { useTestGateway } from "../support/test-gateway";
import { startWebhookReceiver } from "../support/webhook-receiver";

const CLI_TIMEOUT = 120_000;
const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;
const { api } = useTestGateway();
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const run = runScript;

describe("npm run merchant -- --help", () => {
  it(
    "prints the usage of every command and exits 0; per command with <command> --help",
    async () => {
      const all = await run("scripts/merchant.ts", ["--help"]);
      expect(all.code, all.stderr).toBe(0);
      for (const command of ["create", "update", "list", "rotate-secret"])
        expect(all.stdout).toContain(`npm run merchant -- ${command}`);
      const update = await run("scripts/merchant.ts", ["update", "--help"]);
      expect(update.code).toBe(0);
      expect(update.stdout).toContain("--rotate-webhook-secret");
      expect(update.stdout).not.toContain("npm run merchant -- create");
    },
    CLI_TIMEOUT,
  );

  it(
    "answers an unknown command or flag with one line and the usage, never a stack trace",
    async () => {
      for (const args of [["frobnicate"], ["create", "--bogus"], ["update", "--client-id", "x"]]) {
        const result = await run("scripts/merchant.ts", args);
        expect(result.code, args.join(" ")).toBe(1);
        expect(result.stderr).toContain("Usage:");
        expect(result.stderr).not.toMatch(STACK_LINE);
      }
    },
    CLI_TIMEOUT,
  );
});

describe("npm run merchant -- update", () => {
  it(
    "changes name, countries, redirect URL, webhook URL and origins; shows a webhook secret only when it is new",
    async () => {
      const merchant = await createMerchant({ countries: ["DZA"] });
      const receiver = await startWebhookReceiver();
      try {
        const first = await run("scripts/merchant.ts", [
          "update",
          "--client-id",
          merchant.clientId,
          "--name",
          "Renamed Shop",
          "--country",
          "dza",
          "--country",
          "MAR",
          "--redirect-url",
          "http://localhost:4142/thanks",
          "--webhook-url",
          receiver.url(),
          "--origin",
          "http://localhost:*",
          "--json",
        ]);
        expect(first.code, first.stderr).toBe(0);
        const updated = JSON.parse(first.stdout);
        expect(updated).toMatchObject({
          name: "Renamed Shop",
          service: merchant.service,
          countries: ["DZA", "MAR"],
          redirectUrl: "http://localhost:4142/thanks",
          webhookUrl: receiver.url(),
          origins: ["http://localhost:*"],
        });
        expect(updated.webhookSecret).toMatch(/^whsec_/);
        expect(updated.webhookSecret).not.toBe(merchant.webhookSecret);

        // The new URL and secret are what deliveries use.
        await paidIntent(api, merchant, { actionCountryCode: "MAR", actionCurrencyCode: "MAD" });
        await deliverDueNotifications(await getDb(), { schedule: [60], claimForMs: 500 });
        const hook = receiver.received.at(-1)!;
        expect(() => new Webhook(updated.webhookSecret).verify(hook.body, hook.headers)).not.toThrow();

        const second = await run("scripts/merchant.ts", [
          "update",
          "--client-id",
          merchant.clientId,
          "--redirect-url",
          "none",
          "--json",
        ]);
        expect(second.code, second.stderr).toBe(0);
        const again = JSON.parse(second.stdout);
        expect(again.redirectUrl).toBeNull();
        expect(again).not.toHaveProperty("webhookSecret");
        const rotated = await run("scripts/merchant.ts", [
          "update",
          "--client-id",
          merchant.clientId,
          "--rotate-webhook-secret",
          "--json",
        ]);
        expect(JSON.parse(rotated.stdout).webhookSecret).toMatch(/^whsec_/);
      } finally {
        await receiver.close();
      }
    },
    CLI_TIMEOUT,
  );

  it(
    "names the flag when a value is bad, and says so for an unknown client id",
    async () => {
      const bad = await run("scripts/merchant.ts", [
        "update",
        "--client-id",
        "a.b.01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "--webhook-url",
        "ftp://x",
      ]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^--webhook-url: must be an http\(s\) URL/m);
      const unknown = await run("scripts/merchant.ts", [
        "update",
        "--client-id",
        "a.b.01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "--name",
        "X",
      ]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe(
        "No merchant with client id a.b.01ARZ3NDEKTSV4RRFFQ69G5FAV (see npm run merchant -- list).",
      );
    },
    CLI_TIMEOUT,
  );
});

describe("clear messages instead of stack traces", () => {
  it(
    "npm run worker on an embedded database directory in use says who holds it",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "gw-worker-busy-"));
      tempDirs.push(dir);
      writeFileSync(path.join(dir, "gateway.lock"), String(process.pid));
      const result = await run("scripts/worker.ts", [], { DATABASE_URL: undefined, PGLITE_DIR: dir });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `The embedded database in ${dir} is in use by process ${process.pid}. ` +
          "Stop it first, or set DATABASE_URL to share PostgreSQL.",
      );
    },
    CLI_TIMEOUT,
  );

  it(
    "npm run worker with a bad argument prints the usage; with no database reachable, one sentence",
    async () => {
      const bad = await run("scripts/worker.ts", ["--fast"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("Usage: npm run worker");
      expect(bad.stderr).not.toMatch(STACK_LINE);
      const down = await run("scripts/merchant.ts", ["list"], {
        DATABASE_URL: "postgres://postgres@127.0.0.1:4149/nothing",
      });
      expect(down.code).toBe(1);
      expect(down.stderr.trim()).toBe(
        "Could not reach the database at DATABASE_URL (ECONNREFUSED). Is it running and is the address right?",
      );
    },
    CLI_TIMEOUT,
  );
});

describe("sandbox clock reset (contract 9)", () => {
  it("brings the service's clock back with {reset: true} or DELETE", async () => {
    const merchant = await createMerchant();
    const moved = await api.post("/api/v1/sandbox/clock", { advanceSeconds: 3600 }, clientAuth(merchant));
    expect(moved.body.data.clockOffsetSeconds).toBe(3600);
    const reset = await api.post("/api/v1/sandbox/clock", { reset: true }, clientAuth(merchant));
    expect(reset.status).toBe(200);
    expect(reset.body.data.clockOffsetSeconds).toBe(0);
    expect(Math.abs(Date.parse(reset.body.data.now) - Date.now())).toBeLessThan(60_000);
    await api.post("/api/v1/sandbox/clock", { advanceSeconds: 60 }, clientAuth(merchant));
    const deleted = await api.delete("/api/v1/sandbox/clock", undefined, clientAuth(merchant));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      message: "Service clock reset to real time.",
      data: { clockOffsetSeconds: 0 },
    });
  });

  it("refuses a body with neither or both, in one clear message", async () => {
    const merchant = await createMerchant();
    for (const body of [{}, { advanceSeconds: 5, reset: true }]) {
      const response = await api.post("/api/v1/sandbox/clock", body, clientAuth(merchant));
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([
        {
          path: "advanceSeconds",
          message: 'give either "advanceSeconds" (to move the clock forward) or "reset": true (to bring it back)',
        },
      ]);
    }
  });
});
