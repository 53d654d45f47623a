import { eq } from "drizzle-orm";
import { recordAuditEntry } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import { consoleMemberships, consoleUsers, services } from "../../db/schema";
import { onboardMerchant } from "../../merchants/onboard-merchant";
import { createConsoleSession } from "../access/console-sessions";
import { hashPassword, passwordProblem } from "../access/passwords";
import { normalizeEmail } from "../access/sign-in-lockout";

export type SignUpField = "name" | "email" | "password" | "businessName";
export type SignUpResult =
  | { outcome: "created"; token: string; sessionId: string; serviceId: string }
  | { outcome: "invalid"; field: SignUpField; problem: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Sandbox sign-up (contract 13): a user and a new sandbox merchant of its own in the three
 * countries, onboarded exactly as `npm run merchant -- create` does, the user its owner.
 * Production has no sign-up.
 */
export async function signUp(
  db: Db,
  options: { name: string; email: string; password: string; businessName: string; ip: string | null; clock?: Clock },
): Promise<SignUpResult> {
  if (!getConfig().isSandbox) throw new Error("sign-up exists only in the sandbox");
  const name = options.name.trim();
  const businessName = options.businessName.trim();
  const email = normalizeEmail(options.email);
  if (!name || name.length > 120) return { outcome: "invalid", field: "name", problem: "required" };
  if (!EMAIL.test(email) || email.length > 254) return { outcome: "invalid", field: "email", problem: "invalid_email" };
  const problem = passwordProblem(options.password);
  if (problem) return { outcome: "invalid", field: "password", problem };
  if (!businessName || businessName.length > 120)
    return { outcome: "invalid", field: "businessName", problem: "required" };
  const [taken] = await db.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, email));
  if (taken) return { outcome: "invalid", field: "email", problem: "email_taken" };
  const passwordHash = await hashPassword(options.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(consoleUsers)
      .values({ email, name, passwordHash })
      .onConflictDoNothing()
      .returning({ id: consoleUsers.id });
    if (!user) return { outcome: "invalid", field: "email", problem: "email_taken" } as const;
    const merchant = await onboardMerchant(tx, { name: businessName, countries: ["DZA", "MAR", "TUN"], origins: [] });
    const [service] = await tx.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));
    await tx.insert(consoleMemberships).values({ userId: user.id, serviceId: service!.id, role: "owner" });
    const actor = { userId: user.id, email, ip: options.ip };
    await recordAuditEntry(tx, { actor, serviceId: service!.id, action: "sign_up", target: businessName });
    const session = await createConsoleSession(tx, {
      userId: user.id,
      stage: "active",
      clock: options.clock ?? systemClock,
      activeServiceId: service!.id,
    });
    return { outcome: "created", ...session, serviceId: service!.id } as const;
  });
}
