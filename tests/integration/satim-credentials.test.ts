import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getMerchantKeys } from "@/lib/console/merchants/merchant-keys";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentMethodCatalog, redirectProviderAccounts } from "@/lib/db/schema";
import { setMethodCredentials } from "@/lib/payment-methods/method-credentials";
import { satimFaults } from "@/simulators/satim/satim-simulator";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant } from "../support/factories";
import { runScript } from "../support/run-script";
import { serviceIdOf } from "../support/payments";

const ACTOR = { userId: null, email: "owner@shop.example", ip: null };
const SANDBOX = { terminalId: "E010900000", userName: "SANDBOX_MERCHANT", password: "sandbox-password" };

afterEach(() => {
  satimFaults.mode = "none";
});

describe("SATIM credentials (contract 15, Enabling)", () => {
  it("are sealed, never answered, audited, enable SATIM in Algeria and pass Test connection", async () => {
    const merchant = await createMerchant({ countries: ["DZA", "MAR"] });
    const answer = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "SATIM",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(answer).toEqual({
      clientId: merchant.clientId,
      method: "SATIM",
      terminalId: "E010900000",
      userName: "SANDBOX_MERCHANT",
      password: "set",
      enabledIn: ["DZA"],
      connection: "ok",
    });
    expect(JSON.stringify(answer)).not.toContain(SANDBOX.password);
    expect(await findStoredPlaintext([SANDBOX.password])).toEqual([]);
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [sealed] = await db
      .select()
      .from(redirectProviderAccounts)
      .where(eq(redirectProviderAccounts.serviceId, serviceId));
    expect(sealed!.settingsSealed).not.toContain("SANDBOX_MERCHANT");
    const audit = await db
      .select()
      .from(consoleAuditLog)
      .where(
        and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "payment_method_credentials_changed")),
      );
    expect(audit.map((entry) => [entry.userEmail, entry.target])).toEqual([["owner@shop.example", "SATIM"]]);
    const catalog = await db
      .select({ country: paymentMethodCatalog.country })
      .from(paymentMethodCatalog)
      .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, "SATIM")));
    expect(catalog.map((row) => row.country)).toEqual(["DZA"]);
  });

  it("tells wrong credentials from SATIM being down", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const wrong = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "SATIM",
      settings: { ...SANDBOX, password: "not-the-password" },
      actor: ACTOR,
    });
    expect(wrong.connection).toBe("wrong_credentials");
    satimFaults.mode = "down";
    const down = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "SATIM",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(down.connection).toBe("unavailable");
  });

  it("refuses a terminal id SATIM would not take, naming it", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    await expect(
      setMethodCredentials(await getDb(), {
        clientId: merchant.clientId,
        code: "SATIM",
        settings: { ...SANDBOX, terminalId: "E01 09" },
        actor: ACTOR,
      }),
    ).rejects.toThrow(/terminal id/);
  });

  it("are set by npm run merchant -- update with the password from the environment, never printed", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const result = await runScript(
      "scripts/merchant.ts",
      [
        "update",
        "--client-id",
        merchant.clientId,
        "--satim-terminal-id",
        SANDBOX.terminalId,
        "--satim-username",
        SANDBOX.userName,
        "--json",
      ],
      {
        SATIM_PASSWORD: SANDBOX.password,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(SANDBOX.password);
    expect(JSON.parse(result.stdout).satim).toMatchObject({
      method: "SATIM",
      password: "set",
      enabledIn: ["DZA"],
      connection: "ok",
    });
  }, 120_000);

  it("are set with the terms of payment in one command as docs/going-live.md shows (terms URL kept)", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const terms = "https://shop.example/terms-of-payment";
    const result = await runScript(
      "scripts/merchant.ts",
      [
        "update",
        "--client-id",
        merchant.clientId,
        "--terms-url",
        terms,
        "--satim-terminal-id",
        SANDBOX.terminalId,
        "--satim-username",
        SANDBOX.userName,
        "--json",
      ],
      { SATIM_PASSWORD: SANDBOX.password },
    );
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.termsUrl).toBe(terms);
    expect(printed.satim).toMatchObject({ method: "SATIM", enabledIn: ["DZA"], connection: "ok" });
    expect((await getMerchantKeys(await getDb(), await serviceIdOf(merchant))).termsUrl).toBe(terms);
  }, 120_000);
});
