import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentMethodCatalog, redirectProviderAccounts } from "@/lib/db/schema";
import { setMethodCredentials } from "@/lib/payment-methods/method-credentials";
import { CHARGILY_SANDBOX_SECRET_KEY, chargilyFaults } from "@/simulators/chargily/chargily-simulator";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant } from "../support/factories";
import { runScript } from "../support/run-script";
import { serviceIdOf } from "../support/payments";

const ACTOR = { userId: null, email: "owner@shop.example", ip: null };
const SANDBOX = { mode: "test", secretKey: CHARGILY_SANDBOX_SECRET_KEY };

afterEach(() => {
  chargilyFaults.mode = "none";
});

describe("Chargily Pay credentials (contract 15, Enabling)", () => {
  it("are sealed, never answered, audited, enable Chargily in Algeria only, pass Test connection", async () => {
    const merchant = await createMerchant({ countries: ["DZA", "TUN"] });
    const answer = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CHARGILY",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(answer).toEqual({
      clientId: merchant.clientId,
      method: "CHARGILY",
      mode: "test",
      secretKey: "set",
      enabledIn: ["DZA"],
      connection: "ok",
    });
    // Chargily itself (its simulator's checkouts) holds the key it signs its webhooks with; the gateway never does.
    const stored = await findStoredPlaintext([SANDBOX.secretKey]);
    expect(stored.filter((found) => found.table !== "simulators.chargily_checkouts")).toEqual([]);
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [sealed] = await db
      .select()
      .from(redirectProviderAccounts)
      .where(
        and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CHARGILY")),
      );
    expect(sealed!.settingsSealed).not.toContain("test_sk_");
    const audit = await db
      .select()
      .from(consoleAuditLog)
      .where(
        and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "payment_method_credentials_changed")),
      );
    expect(audit.map((entry) => [entry.userEmail, entry.target])).toEqual([["owner@shop.example", "CHARGILY"]]);
    const catalog = await db
      .select({ country: paymentMethodCatalog.country })
      .from(paymentMethodCatalog)
      .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, "CHARGILY")));
    expect(catalog.map((row) => row.country)).toEqual(["DZA"]);
  });

  it("refuses a key of the other mode, and tells a wrong key from Chargily being down", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    await expect(
      setMethodCredentials(await getDb(), {
        clientId: merchant.clientId,
        code: "CHARGILY",
        settings: { mode: "live", secretKey: CHARGILY_SANDBOX_SECRET_KEY },
        actor: ACTOR,
      }),
    ).rejects.toThrow(/same mode/);
    const wrong = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CHARGILY",
      settings: { mode: "test", secretKey: "test_sk_NotTheMerchantsKey000" },
      actor: ACTOR,
    });
    expect(wrong.connection).toBe("wrong_credentials");
    chargilyFaults.mode = "down";
    const down = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CHARGILY",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(down.connection).toBe("unavailable");
  });

  it("are set by npm run merchant -- update with the secret key from the environment, never printed", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const result = await runScript(
      "scripts/merchant.ts",
      ["update", "--client-id", merchant.clientId, "--chargily-mode", "test", "--json"],
      {
        CHARGILY_SECRET_KEY: SANDBOX.secretKey,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(SANDBOX.secretKey);
    expect(JSON.parse(result.stdout).chargily).toMatchObject({
      method: "CHARGILY",
      secretKey: "set",
      enabledIn: ["DZA"],
      connection: "ok",
    });
  }, 120_000);
});
