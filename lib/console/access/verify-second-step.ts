import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { recordAuditEntry } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import { decryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { consoleRecoveryCodes, consoleUsers } from "../../db/schema";
import { replaceConsoleSession } from "./console-sessions";
import { looksLikeRecoveryCode, recoveryCodeHashes } from "./recovery-codes";
import { lockedUntil, recordSignInFailure, serializeAttemptsOn } from "./sign-in-lockout";
import { matchingTotpStep } from "./totp";

export type SecondStepResult =
  /** The code-stage session ended; `token` opens its replacement, a full session. */
  | { outcome: "verified"; method: "totp" | "recovery_code"; token: string }
  | { outcome: "refused" }
  | { outcome: "locked"; until: Date };

/**
 * Consumes a current TOTP code (one whose step is newer than the last accepted: a code already
 * used is refused, RFC 6238 5.2) or an unused recovery code. Each claim is a conditional
 * UPDATE, so two posts of one code cannot both pass.
 */
export async function consumeSecondFactor(
  db: Db,
  options: { userId: string; code: string; clock?: Clock },
): Promise<"totp" | "recovery_code" | null> {
  const now = (options.clock ?? systemClock).now();
  const code = options.code.trim().replace(/\s/g, "");
  const [user] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, options.userId));
  if (!user?.totpSecretEncrypted) return null;
  if (/^\d{6}$/.test(code)) {
    const secret = decryptWithKey(await getGatewayKey(db), user.totpSecretEncrypted);
    const step = matchingTotpStep(secret, code, now);
    if (step === null) return null;
    const claimed = await db
      .update(consoleUsers)
      .set({ totpLastUsedStep: step })
      .where(
        and(
          eq(consoleUsers.id, user.id),
          or(isNull(consoleUsers.totpLastUsedStep), lt(consoleUsers.totpLastUsedStep, step)),
        ),
      )
      .returning({ id: consoleUsers.id });
    return claimed.length > 0 ? "totp" : null;
  }
  if (!looksLikeRecoveryCode(code)) return null;
  const used = await db
    .update(consoleRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(consoleRecoveryCodes.userId, user.id),
        inArray(consoleRecoveryCodes.codeHash, recoveryCodeHashes(await getGatewayKey(db), code)),
        isNull(consoleRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: consoleRecoveryCodes.id });
  return used.length > 0 ? "recovery_code" : null;
}

/**
 * The code step of sign-in: a wrong code counts toward the email's lockout like a wrong password.
 * Checked and counted under the email's lock, so parallel wrong codes never exceed the limit.
 */
export async function verifySecondStep(
  db: Db,
  options: { sessionId: string; user: { id: string; email: string }; code: string; ip: string | null; clock?: Clock },
): Promise<SecondStepResult> {
  const now = (options.clock ?? systemClock).now();
  const actor = { userId: options.user.id, email: options.user.email, ip: options.ip };
  return db.transaction(async (tx) => {
    await serializeAttemptsOn(tx, options.user.email);
    const until = await lockedUntil(tx, options.user.email, now);
    if (until) return { outcome: "locked", until } as const;
    const method = await consumeSecondFactor(tx, { userId: options.user.id, code: options.code, clock: options.clock });
    if (!method) {
      await recordSignInFailure(tx, options.user.email, now);
      await recordAuditEntry(tx, {
        actor,
        serviceId: null,
        action: "sign_in_failed",
        target: "authentication code",
        at: now,
      });
      return { outcome: "refused" } as const;
    }
    // A new token for the full session: the one that only passed the password stops working.
    const replaced = await replaceConsoleSession(tx, options.sessionId, { stage: "active", clock: options.clock });
    if (!replaced) return { outcome: "refused" } as const;
    await recordAuditEntry(tx, {
      actor,
      serviceId: null,
      action: "sign_in",
      target: method === "totp" ? "authentication code" : "recovery code",
      at: now,
    });
    return { outcome: "verified", method, token: replaced.token } as const;
  });
}
