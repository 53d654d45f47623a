import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentMethodCatalog, redirectProviderAccounts } from "@/lib/db/schema";
import { setMethodCredentials } from "@/lib/payment-methods/method-credentials";
import { cmiFaults, CMI_SANDBOX_STORE } from "@/simulators/cmi/cmi-simulator";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant } from "../support/factories";
import { runScript } from "../support/run-script";
import { serviceIdOf } from "../support/payments";

const ACTOR = { userId: null, email: "owner@shop.example", ip: null };

afterEach(() => {
  cmiFaults.mode = "none";
});

describe("CMI credentials (contract 15, Enabling)", () => {
  it("are sealed, never answered, audited, enable CMI in Morocco only and pass Test connection", async () => {
    const merchant = await createMerchant({ countries: ["MAR", "TUN"] });
    const answer = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CMI",
      settings: CMI_SANDBOX_STORE,
      actor: ACTOR,
    });
    expect(answer).toEqual({
      clientId: merchant.clientId,
      method: "CMI",
      cmiClientId: CMI_SANDBOX_STORE.clientId,
      apiUser: CMI_SANDBOX_STORE.apiUser,
      storeKey: "set",
      apiPassword: "set",
      enabledIn: ["MAR"],
      connection: "ok",
    });
    expect(await findStoredPlaintext([CMI_SANDBOX_STORE.storeKey, CMI_SANDBOX_STORE.apiPassword])).toEqual([]);
    const serviceId = await serviceIdOf(merchant);
    const db = await getDb();
    const [sealed] = await db
      .select()
      .from(redirectProviderAccounts)
      .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CMI")));
    expect(sealed!.settingsSealed).not.toContain(CMI_SANDBOX_STORE.apiUser);
    const audit = await db
      .select()
      .from(consoleAuditLog)
      .where(
        and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "payment_method_credentials_changed")),
      );
    expect(audit.map((entry) => [entry.userEmail, entry.target])).toEqual([["owner@shop.example", "CMI"]]);
    const catalog = await db
      .select({ country: paymentMethodCatalog.country })
      .from(paymentMethodCatalog)
      .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, "CMI")));
    expect(catalog.map((row) => row.country)).toEqual(["MAR"]);
  });

  it("tells wrong credentials from CMI being down", async () => {
    const merchant = await createMerchant({ countries: ["MAR"] });
    const wrong = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CMI",
      settings: { ...CMI_SANDBOX_STORE, apiPassword: "not-the-password" },
      actor: ACTOR,
    });
    expect(wrong.connection).toBe("wrong_credentials");
    cmiFaults.mode = "down";
    const down = await setMethodCredentials(await getDb(), {
      clientId: merchant.clientId,
      code: "CMI",
      settings: CMI_SANDBOX_STORE,
      actor: ACTOR,
    });
    expect(down.connection).toBe("unavailable");
  });

  it("are set by merchant update --cmi-client-id, store key and API password from the env, never printed", async () => {
    const merchant = await createMerchant({ countries: ["MAR"] });
    const result = await runScript(
      "scripts/merchant.ts",
      [
        "update",
        "--client-id",
        merchant.clientId,
        "--cmi-client-id",
        CMI_SANDBOX_STORE.clientId,
        "--cmi-api-user",
        CMI_SANDBOX_STORE.apiUser,
        "--json",
      ],
      { CMI_STORE_KEY: CMI_SANDBOX_STORE.storeKey, CMI_API_PASSWORD: CMI_SANDBOX_STORE.apiPassword },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(CMI_SANDBOX_STORE.storeKey);
    expect(result.stdout).not.toContain(CMI_SANDBOX_STORE.apiPassword);
    expect(JSON.parse(result.stdout).cmi).toMatchObject({
      method: "CMI",
      storeKey: "set",
      enabledIn: ["MAR"],
      connection: "ok",
    });

    const missingKey = await runScript(
      "scripts/merchant.ts",
      [
        "update",
        "--client-id",
        merchant.clientId,
        "--cmi-client-id",
        CMI_SANDBOX_STORE.clientId,
        "--cmi-api-user",
        "x",
      ],
      {
        CMI_STORE_KEY: "",
        CMI_API_PASSWORD: "p",
      },
    );
    expect(missingKey.code).not.toBe(0);
    expect(missingKey.stderr).toContain("CMI_STORE_KEY");
  }, 120_000);
});
