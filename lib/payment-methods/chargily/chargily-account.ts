import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../config";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { redirectProviderAccounts } from "../../db/schema";
import type { RedirectAccount } from "../contract/redirect-provider";

/**
 * What Chargily Pay gives a merchant (its dashboard, Developers corner): the API secret key,
 * test_sk_... in test mode, live_sk_... in live mode. The same key signs its webhooks.
 */
export const chargilyAccountSchema = z
  .object({
    mode: z.enum(["test", "live"]),
    secretKey: z
      .string()
      .regex(/^(test|live)_sk_[A-Za-z0-9]{8,100}$/, "must be a Chargily Pay secret key (test_sk_... or live_sk_...)"),
  })
  .refine((account) => account.secretKey.startsWith(`${account.mode}_sk_`), {
    path: ["secretKey"],
    message: "must be a key of the same mode (test_sk_ in test, live_sk_ in live)",
  });
export type ChargilyAccount = z.infer<typeof chargilyAccountSchema>;

/**
 * The Chargily simulator's merchant (simulators/chargily): a sandbox service without credentials of its own
 * uses it.
 */
export const SANDBOX_CHARGILY_ACCOUNT: ChargilyAccount = {
  mode: "test",
  secretKey: "test_sk_SandboxChargilyMerchant0000000000",
};

/**
 * The service's Chargily credentials, sealed with the gateway key; in the sandbox the simulator's merchant
 * when none were set. Null: production refuses the method.
 */
export async function findChargilyAccount(db: Db, serviceId: string): Promise<RedirectAccount | null> {
  const [row] = await db
    .select({ sealed: redirectProviderAccounts.settingsSealed })
    .from(redirectProviderAccounts)
    .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CHARGILY")));
  if (!row) return getConfig().isSandbox ? SANDBOX_CHARGILY_ACCOUNT : null;
  return chargilyAccountSchema.parse(JSON.parse(decryptWithKey(await getGatewayKey(db), row.sealed)));
}

/** Seals and stores the service's credentials (the merchant CLI; the console's Settings). Answers nothing secret. */
export async function saveChargilyAccount(
  db: Db,
  options: { serviceId: string; account: ChargilyAccount },
): Promise<{ mode: string; secretKey: "set" }> {
  const sealed = encryptWithKey(await getGatewayKey(db), JSON.stringify(chargilyAccountSchema.parse(options.account)));
  const now = new Date();
  await db
    .insert(redirectProviderAccounts)
    .values({
      serviceId: options.serviceId,
      methodCode: "CHARGILY",
      settingsSealed: sealed,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [redirectProviderAccounts.serviceId, redirectProviderAccounts.methodCode],
      set: { settingsSealed: sealed, updatedAt: now },
    });
  return { mode: options.account.mode, secretKey: "set" };
}
