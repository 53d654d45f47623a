import { eq } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { consoleUsers } from "../../db/schema";
import { endUserSessions } from "./console-sessions";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords";

export type ChangePasswordResult =
  | { outcome: "changed" }
  | { outcome: "wrong_password" }
  | { outcome: "invalid_new_password"; problem: "too_short" | "too_long" };

/** A new password ends every other session of the user at once (contract 13); this one goes on. */
export async function changePassword(
  db: Db,
  options: { actor: AuditActor & { userId: string }; sessionId: string; currentPassword: string; newPassword: string },
): Promise<ChangePasswordResult> {
  const problem = passwordProblem(options.newPassword);
  if (problem) return { outcome: "invalid_new_password", problem };
  const [user] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, options.actor.userId));
  if (!user || !(await verifyPassword(options.currentPassword, user.passwordHash)))
    return { outcome: "wrong_password" };
  const passwordHash = await hashPassword(options.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(consoleUsers).set({ passwordHash }).where(eq(consoleUsers.id, user.id));
    await endUserSessions(tx, user.id, options.sessionId);
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: null,
      action: "password_changed",
      target: user.email,
    });
  });
  return { outcome: "changed" };
}
