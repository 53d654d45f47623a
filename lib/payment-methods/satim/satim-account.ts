import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../config";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { redirectProviderAccounts } from "../../db/schema";
import type { RedirectAccount } from "../contract/redirect-provider";

/**
 * What a merchant's bank issues it for SATIM ePay: the terminal id (force_terminal_id) and the API user's
 * name and password.
 */
export const satimAccountSchema = z.object({
  terminalId: z
    .string()
    .regex(/^[A-Za-z0-9]{1,16}$/, "must be SATIM's terminal id (1 to 16 letters and digits, e.g. E010900000)"),
  userName: z.string().min(1).max(30),
  password: z.string().min(1).max(30),
});
export type SatimAccount = z.infer<typeof satimAccountSchema>;

/** The SATIM simulator's merchant (simulators/satim): a sandbox service without credentials of its own uses it. */
export const SANDBOX_SATIM_ACCOUNT: SatimAccount = {
  terminalId: "E010900000",
  userName: "SANDBOX_MERCHANT",
  password: "sandbox-password",
};

/**
 * The service's SATIM credentials, sealed with the gateway key like the card provider's secret
 * keys (lib/providers/card/card-provider-accounts.ts); in the sandbox, the simulator's merchant
 * when none were set. Null: production refuses the method.
 */
export async function findSatimAccount(db: Db, serviceId: string): Promise<RedirectAccount | null> {
  const [row] = await db
    .select({ sealed: redirectProviderAccounts.settingsSealed })
    .from(redirectProviderAccounts)
    .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, "SATIM")));
  if (!row) return getConfig().isSandbox ? SANDBOX_SATIM_ACCOUNT : null;
  return satimAccountSchema.parse(JSON.parse(decryptWithKey(await getGatewayKey(db), row.sealed)));
}

/** Seals and stores the service's credentials (the merchant CLI; the console's Settings). Answers nothing secret. */
export async function saveSatimAccount(
  db: Db,
  options: { serviceId: string; account: SatimAccount },
): Promise<{ terminalId: string; userName: string; password: "set" }> {
  const sealed = encryptWithKey(await getGatewayKey(db), JSON.stringify(satimAccountSchema.parse(options.account)));
  const now = new Date();
  await db
    .insert(redirectProviderAccounts)
    .values({
      serviceId: options.serviceId,
      methodCode: "SATIM",
      settingsSealed: sealed,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [redirectProviderAccounts.serviceId, redirectProviderAccounts.methodCode],
      set: { settingsSealed: sealed, updatedAt: now },
    });
  return { terminalId: options.account.terminalId, userName: options.account.userName, password: "set" };
}
