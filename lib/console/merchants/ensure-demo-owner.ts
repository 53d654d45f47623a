import { and, eq } from "drizzle-orm";
import { hmacHex } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { consoleMemberships, consoleUsers } from "../../db/schema";
import { hashPassword } from "../access/passwords";
import { demoMerchantServiceId } from "../../merchants/demo-merchant";

export const DEMO_OWNER_EMAIL = "owner@demo-shop.example";

/**
 * Sandbox: the demo merchant's owner, to sign in to the console with. Its password derives from
 * the gateway key, so every `npm start` can print it again without it being stored anywhere but
 * as a hash (a password changed in the console is, of course, no longer this one).
 */
export function demoOwnerPassword(gatewayKey: Buffer): string {
  return `demo-${hmacHex(gatewayKey, "demo-owner-password", DEMO_OWNER_EMAIL).slice(0, 20)}`;
}

export async function ensureDemoOwner(db: Db, gatewayKey: Buffer): Promise<{ email: string; password: string } | null> {
  const demoId = await demoMerchantServiceId(db);
  if (!demoId) return null;
  const password = demoOwnerPassword(gatewayKey);
  let [user] = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.email, DEMO_OWNER_EMAIL));
  if (!user) {
    [user] = await db
      .insert(consoleUsers)
      .values({ email: DEMO_OWNER_EMAIL, name: "Demo Owner", passwordHash: await hashPassword(password) })
      .onConflictDoNothing()
      .returning({ id: consoleUsers.id });
    if (!user)
      [user] = await db
        .select({ id: consoleUsers.id })
        .from(consoleUsers)
        .where(eq(consoleUsers.email, DEMO_OWNER_EMAIL));
  }
  const [member] = await db
    .select({ role: consoleMemberships.role })
    .from(consoleMemberships)
    .where(and(eq(consoleMemberships.userId, user!.id), eq(consoleMemberships.serviceId, demoId)));
  if (!member)
    await db
      .insert(consoleMemberships)
      .values({ userId: user!.id, serviceId: demoId, role: "owner" })
      .onConflictDoNothing();
  return { email: DEMO_OWNER_EMAIL, password };
}
