import { eq } from "drizzle-orm";
import { recordAuditEntry } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import type { Db } from "../../db/client";
import { consoleUsers } from "../../db/schema";
import { createConsoleSession } from "./console-sessions";
import { verifyAgainstDecoy, verifyPassword } from "./passwords";
import { lockedUntil, normalizeEmail, recordSignInFailure } from "./sign-in-lockout";

export type SignInResult =
  | { outcome: "locked"; until: Date }
  /** Wrong password and unknown email alike. */
  | { outcome: "refused" }
  /** Signed in; with two-step verification on, the session waits for the code step. */
  | { outcome: "signed_in"; token: string; sessionId: string; needsCode: boolean };

/** The password step of contract 13's sign-in: lockout, one answer for every refusal, the audit entry. */
export async function signIn(
  db: Db,
  options: { email: string; password: string; ip: string | null; clock?: Clock },
): Promise<SignInResult> {
  const now = (options.clock ?? systemClock).now();
  const email = normalizeEmail(options.email);
  const until = await lockedUntil(db, email, now);
  if (until) return { outcome: "locked", until };
  const [user] = await db.select().from(consoleUsers).where(eq(consoleUsers.email, email));
  const passwordOk = user
    ? await verifyPassword(options.password, user.passwordHash)
    : await verifyAgainstDecoy(options.password);
  if (!user || !passwordOk) {
    await db.transaction(async (tx) => {
      await recordSignInFailure(tx, email, now);
      await recordAuditEntry(tx, {
        actor: { userId: user?.id ?? null, email, ip: options.ip },
        serviceId: null,
        action: "sign_in_failed",
        target: "password",
        at: now,
      });
    });
    return { outcome: "refused" };
  }
  // Checked again after the hash: a burst of guesses sent at once all pass the first check
  // while their hashes queue, so the failures counted meanwhile must still refuse this one.
  const lockedMeanwhile = await lockedUntil(db, email, now);
  if (lockedMeanwhile) return { outcome: "locked", until: lockedMeanwhile };
  const needsCode = user.totpSecretEncrypted !== null;
  return db.transaction(async (tx) => {
    const session = await createConsoleSession(tx, {
      userId: user.id,
      stage: needsCode ? "code" : "active",
      clock: options.clock,
    });
    // With a code to come, the sign-in is recorded when the code step passes.
    if (!needsCode)
      await recordAuditEntry(tx, {
        actor: { userId: user.id, email, ip: options.ip },
        serviceId: null,
        action: "sign_in",
        target: "password",
        at: now,
      });
    return { outcome: "signed_in", ...session, needsCode };
  });
}
