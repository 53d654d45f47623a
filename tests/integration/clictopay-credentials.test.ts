import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentMethodCatalog, redirectProviderAccounts } from "@/lib/db/schema";
import { setMethodCredentials } from "@/lib/payment-methods/method-credentials";
import { clictopayFaults } from "@/simulators/clictopay/clictopay-simulator";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant } from "../support/factories";
import { runScript } from "../support/run-script";
import { serviceIdOf } from "../support/payments";

const ACTOR = { userId: null, email: "owner@shop.example", ip: null };
const SANDBOX = { userName: "SANDBOX_CTP_MERCHANT", password: "sandbox-ctp-password" };

afterEach(() => {
  clictopayFaults.mode = "none";
});

describe("ClicToPay credentials (contract 15, Enabling)", () => {
  it("are sealed, never answered, audited, enable ClicToPay in Tunisia only and pass Test connection", async () => {
    const merchant = await createMerchant({ countries: ["TUN", "DZA"] });
    const answer = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CLICTOPAY",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(answer).toEqual({
      clientId: merchant.clientId,
      method: "CLICTOPAY",
      userName: SANDBOX.userName,
      password: "set",
      enabledIn: ["TUN"],
      connection: "ok",
    });
    expect(await findStoredPlaintext([SANDBOX.password])).toEqual([]);
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [sealed] = await db
      .select()
      .from(redirectProviderAccounts)
      .where(
        and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CLICTOPAY")),
      );
    expect(sealed!.settingsSealed).not.toContain(SANDBOX.userName);
    const audit = await db
      .select()
      .from(consoleAuditLog)
      .where(
        and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "payment_method_credentials_changed")),
      );
    expect(audit.map((entry) => [entry.userEmail, entry.target])).toEqual([["owner@shop.example", "CLICTOPAY"]]);
    const catalog = await db
      .select({ country: paymentMethodCatalog.country })
      .from(paymentMethodCatalog)
      .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, "CLICTOPAY")));
    expect(catalog.map((row) => row.country)).toEqual(["TUN"]);
  });

  it("tells wrong credentials from ClicToPay being down", async () => {
    const merchant = await createMerchant({ countries: ["TUN"] });
    const wrong = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CLICTOPAY",
      settings: { ...SANDBOX, password: "not-the-password" },
      actor: ACTOR,
    });
    expect(wrong.connection).toBe("wrong_credentials");
    clictopayFaults.mode = "down";
    const down = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CLICTOPAY",
      settings: SANDBOX,
      actor: ACTOR,
    });
    expect(down.connection).toBe("unavailable");
  });

  it("are set by npm run merchant -- update with the password from the environment, never printed", async () => {
    const merchant = await createMerchant({ countries: ["TUN"] });
    const result = await runScript(
      "scripts/merchant.ts",
      ["update", "--client-id", merchant.clientId, "--clictopay-username", SANDBOX.userName, "--json"],
      {
        CLICTOPAY_PASSWORD: SANDBOX.password,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(SANDBOX.password);
    expect(JSON.parse(result.stdout).clictopay).toMatchObject({
      method: "CLICTOPAY",
      password: "set",
      enabledIn: ["TUN"],
      connection: "ok",
    });
  }, 120_000);
});
