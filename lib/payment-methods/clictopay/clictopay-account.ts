import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../config";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { redirectProviderAccounts } from "../../db/schema";
import type { RedirectAccount } from "../contract/redirect-provider";

/** What Monétique Tunisie issues a merchant for ClicToPay's REST interface: the API user's name and password. */
export const clictopayAccountSchema = z.object({
  userName: z.string().min(1).max(100),
  password: z.string().min(1).max(100),
});
export type ClictopayAccount = z.infer<typeof clictopayAccountSchema>;

/**
 * The ClicToPay simulator's merchant (simulators/clictopay): a sandbox service without credentials of its own
 * uses it.
 */
export const SANDBOX_CLICTOPAY_ACCOUNT: ClictopayAccount = {
  userName: "SANDBOX_CTP_MERCHANT",
  password: "sandbox-ctp-password",
};

/**
 * The service's ClicToPay credentials, sealed with the gateway key; in the sandbox the simulator's merchant
 * when none were set. Null: production refuses the method.
 */
export async function findClictopayAccount(db: Db, serviceId: string): Promise<RedirectAccount | null> {
  const [row] = await db
    .select({ sealed: redirectProviderAccounts.settingsSealed })
    .from(redirectProviderAccounts)
    .where(
      and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "CLICTOPAY")),
    );
  if (!row) return getConfig().isSandbox ? SANDBOX_CLICTOPAY_ACCOUNT : null;
  return clictopayAccountSchema.parse(JSON.parse(decryptWithKey(await getGatewayKey(db), row.sealed)));
}

/** Seals and stores the service's credentials (the merchant CLI; the console's Settings). Answers nothing secret. */
export async function saveClictopayAccount(
  db: Db,
  options: { serviceId: string; account: ClictopayAccount },
): Promise<{ userName: string; password: "set" }> {
  const sealed = encryptWithKey(await getGatewayKey(db), JSON.stringify(clictopayAccountSchema.parse(options.account)));
  const now = new Date();
  await db
    .insert(redirectProviderAccounts)
    .values({
      serviceId: options.serviceId,
      methodCode: "CLICTOPAY",
      settingsSealed: sealed,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [redirectProviderAccounts.serviceId, redirectProviderAccounts.methodCode],
      set: { settingsSealed: sealed, updatedAt: now },
    });
  return { userName: options.account.userName, password: "set" };
}
