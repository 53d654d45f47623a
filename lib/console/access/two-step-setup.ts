import { and, eq, isNotNull } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { consoleRecoveryCodes, consoleUsers } from "../../db/schema";
import { replaceConsoleSession } from "./console-sessions";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { matchingTotpStep, newTotpSecret } from "./totp";

/** "Turn on two-step verification": a new secret waits, unproven, until a code from it comes back. */
export async function startTwoStepSetup(db: Db, userId: string): Promise<void> {
  const sealed = encryptWithKey(await getGatewayKey(db), newTotpSecret());
  await db.update(consoleUsers).set({ totpPendingSecretEncrypted: sealed }).where(eq(consoleUsers.id, userId));
}

/** The secret being set up, to show as a QR code and as text; null when no setup is under way. */
export async function pendingTwoStepSecret(db: Db, userId: string): Promise<string | null> {
  const [user] = await db
    .select({ sealed: consoleUsers.totpPendingSecretEncrypted })
    .from(consoleUsers)
    .where(eq(consoleUsers.id, userId));
  return user?.sealed ? decryptWithKey(await getGatewayKey(db), user.sealed) : null;
}

export type ConfirmTwoStepResult =
  | { outcome: "enabled"; recoveryCodes: string[]; session?: { token: string; sessionId: string } }
  | { outcome: "wrong_code" }
  | { outcome: "no_setup" };

/**
 * A code from the new secret turns two-step verification on and makes 10 recovery codes,
 * returned this once (only their hashes are kept). Its step counts as used. Given the session it
 * was set up in, that session is replaced in the same transaction (a step up, as the code step
 * of sign-in: a member who must set it up first gets a full session only now), so a token
 * planted or seen before the step opens nothing afterwards; `session` opens its replacement.
 */
export async function confirmTwoStepSetup(
  db: Db,
  options: { actor: AuditActor & { userId: string }; code: string; sessionId?: string; clock?: Clock },
): Promise<ConfirmTwoStepResult> {
  const now = (options.clock ?? systemClock).now();
  const secret = await pendingTwoStepSecret(db, options.actor.userId);
  if (!secret) return { outcome: "no_setup" };
  const step = matchingTotpStep(secret, options.code.trim(), now);
  if (step === null) return { outcome: "wrong_code" };
  const recoveryCodes = newRecoveryCodes();
  const gatewayKey = await getGatewayKey(db);
  const sealed = encryptWithKey(gatewayKey, secret);
  return db.transaction(async (tx) => {
    const turnedOn = await tx
      .update(consoleUsers)
      .set({ totpSecretEncrypted: sealed, totpPendingSecretEncrypted: null, totpLastUsedStep: step })
      .where(and(eq(consoleUsers.id, options.actor.userId), isNotNull(consoleUsers.totpPendingSecretEncrypted)))
      .returning({ id: consoleUsers.id });
    if (turnedOn.length === 0) return { outcome: "no_setup" } as const;
    await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, options.actor.userId));
    await tx
      .insert(consoleRecoveryCodes)
      .values(
        recoveryCodes.map((code) => ({ userId: options.actor.userId, codeHash: hashRecoveryCode(gatewayKey, code) })),
      );
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: null,
      action: "two_step_enabled",
      target: options.actor.email,
      at: now,
    });
    if (!options.sessionId) return { outcome: "enabled", recoveryCodes } as const;
    const session = await replaceConsoleSession(tx, options.sessionId, { stage: "active", clock: options.clock });
    return { outcome: "enabled", recoveryCodes, ...(session ? { session } : {}) } as const;
  });
}
