import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../config";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { redirectProviderAccounts } from "../../db/schema";
import type { RedirectAccount } from "../contract/redirect-provider";

/**
 * What CMI issues a merchant (with its bank): the store's client id (merchant id) and store key,
 * which signs the 3D Pay Hosting form and CMI's callback, and the API user the merchant creates
 * in CMI's Merchant Center for the CC5Request calls (PostAuth, Void, Credit, order status).
 */
export const cmiAccountSchema = z.object({
  clientId: z.string().regex(/^[A-Za-z0-9]{1,15}$/, "must be CMI's client id (merchant id)"),
  storeKey: z.string().min(1).max(128),
  apiUser: z.string().min(1).max(64),
  apiPassword: z.string().min(1).max(128),
});
export type CmiAccount = z.infer<typeof cmiAccountSchema>;

/**
 * The CMI simulator's store (simulators/cmi): a sandbox service without credentials of its own uses it. Its
 * key carries `|` and `\` on purpose (the hash escapes them).
 */
export const SANDBOX_CMI_ACCOUNT: CmiAccount = {
  clientId: "600000001",
  storeKey: "Sandbox|Store\\Key1",
  apiUser: "sandboxapi",
  apiPassword: "sandbox-cmi-api-password",
};

/**
 * The service's CMI credentials, sealed with the gateway key; in the sandbox the simulator's store when none
 * were set. Null: production refuses the method.
 */
export async function findCmiAccount(db: Db, serviceId: string): Promise<RedirectAccount | null> {
  const [row] = await db
    .select({ sealed: redirectProviderAccounts.settingsSealed })
    .from(redirectProviderAccounts)
    .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CMI")));
  if (!row) return getConfig().isSandbox ? SANDBOX_CMI_ACCOUNT : null;
  return cmiAccountSchema.parse(JSON.parse(decryptWithKey(await getGatewayKey(db), row.sealed)));
}

/** Seals and stores the service's credentials (the merchant CLI; the console's Settings). Answers nothing secret. */
export async function saveCmiAccount(
  db: Db,
  options: { serviceId: string; account: CmiAccount },
): Promise<{ cmiClientId: string; apiUser: string; storeKey: "set"; apiPassword: "set" }> {
  const sealed = encryptWithKey(await getGatewayKey(db), JSON.stringify(cmiAccountSchema.parse(options.account)));
  const now = new Date();
  await db
    .insert(redirectProviderAccounts)
    .values({ serviceId: options.serviceId, methodCode: "CMI", settingsSealed: sealed, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [redirectProviderAccounts.serviceId, redirectProviderAccounts.methodCode],
      set: { settingsSealed: sealed, updatedAt: now },
    });
  return {
    cmiClientId: options.account.clientId,
    apiUser: options.account.apiUser,
    storeKey: "set",
    apiPassword: "set",
  };
}
