import { eq } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { consoleRecoveryCodes, consoleUsers } from "../../db/schema";
import { verifyPassword } from "./passwords";
import { merchantsRequiringTwoStep } from "./two-step-policy";

export type TurnOffTwoStepResult =
  { outcome: "turned_off" } | { outcome: "wrong_password" } | { outcome: "required"; merchantName: string };

/** Off again, with the password; refused while a merchant of the user requires it. */
export async function turnOffTwoStep(
  db: Db,
  options: { actor: AuditActor & { userId: string }; password: string },
): Promise<TurnOffTwoStepResult> {
  const [user] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, options.actor.userId));
  if (!user || !(await verifyPassword(options.password, user.passwordHash))) return { outcome: "wrong_password" };
  const [requiring] = await merchantsRequiringTwoStep(db, user.id);
  if (requiring) return { outcome: "required", merchantName: requiring.name };
  await db.transaction(async (tx) => {
    await tx
      .update(consoleUsers)
      .set({ totpSecretEncrypted: null, totpPendingSecretEncrypted: null, totpLastUsedStep: null })
      .where(eq(consoleUsers.id, user.id));
    await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id));
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: null,
      action: "two_step_disabled",
      target: user.email,
    });
  });
  return { outcome: "turned_off" };
}
