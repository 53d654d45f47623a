import { eq } from "drizzle-orm";
import { recordAuditEntry } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import type { Db } from "../../db/client";
import { consoleMemberships, consoleUsers } from "../../db/schema";
import { createConsoleSession } from "./console-sessions";
import { claimInvitation, findOpenInvitation } from "./invitations";
import { hashPassword, passwordProblem, verifyAgainstDecoy, verifyPassword } from "./passwords";
import { lockedUntil, recordSignInFailure } from "./sign-in-lockout";

export type AcceptInvitationResult =
  | { outcome: "joined"; token: string; sessionId: string; needsCode: boolean }
  | { outcome: "not_open" }
  | { outcome: "invalid_name" }
  | { outcome: "invalid_password"; problem: "too_short" | "too_long" }
  | { outcome: "wrong_password" }
  | { outcome: "locked"; until: Date };

/**
 * The invitation link's form: a new person sets a name and a password; someone who already has
 * an account gives its password (a sign-in, with its lockout). Either way the invitation is
 * used up and the membership made in one transaction, and the person is signed in.
 */
export async function acceptInvitation(
  db: Db,
  options: { token: string; name: string; password: string; ip: string | null; clock?: Clock },
): Promise<AcceptInvitationResult> {
  const clock = options.clock ?? systemClock;
  const now = clock.now();
  const invitation = await findOpenInvitation(db, options.token, clock);
  if (!invitation) return { outcome: "not_open" };
  let userId = invitation.existingUserId;
  let passwordHash: string | null = null;
  let needsCode = false;
  if (userId) {
    const until = await lockedUntil(db, invitation.email, now);
    if (until) return { outcome: "locked", until };
    const [user] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, userId));
    if (!user || !(await verifyPassword(options.password, user.passwordHash))) {
      if (!user) await verifyAgainstDecoy(options.password);
      // A sign-in that failed, recorded as the sign-in form records one (contract 13's audit log).
      await db.transaction(async (tx) => {
        await recordSignInFailure(tx, invitation.email, now);
        await recordAuditEntry(tx, {
          actor: { userId, email: invitation.email, ip: options.ip },
          serviceId: null,
          action: "sign_in_failed",
          target: "invitation",
          at: now,
        });
      });
      return { outcome: "wrong_password" };
    }
    needsCode = user.totpSecretEncrypted !== null;
  } else {
    const name = options.name.trim();
    if (name.length === 0 || name.length > 120) return { outcome: "invalid_name" };
    const problem = passwordProblem(options.password);
    if (problem) return { outcome: "invalid_password", problem };
    passwordHash = await hashPassword(options.password);
  }
  return db.transaction(async (tx) => {
    // The memberships are locked first, as team.ts locks them before it withdraws invitations:
    // one order for both, so a removal and an acceptance at once cannot deadlock.
    const members = await tx
      .select({ userId: consoleMemberships.userId, role: consoleMemberships.role })
      .from(consoleMemberships)
      .where(eq(consoleMemberships.serviceId, invitation.serviceId))
      .for("update");
    if (!(await claimInvitation(tx, invitation.id, now))) return { outcome: "not_open" } as const;
    if (!userId) {
      const [created] = await tx
        .insert(consoleUsers)
        .values({ email: invitation.email, name: options.name.trim(), passwordHash: passwordHash! })
        .onConflictDoNothing()
        .returning({ id: consoleUsers.id });
      // The email signed up meanwhile: the link's holder must sign in as that account instead.
      if (!created) return { outcome: "not_open" } as const;
      userId = created.id;
    }
    // Already a member: the invitation's role replaces the current one, but never the last
    // owner's (contract 13: a merchant always keeps one owner).
    const current = members.find((member) => member.userId === userId);
    const isLastOwner = current?.role === "owner" && members.filter((member) => member.role === "owner").length === 1;
    if (!(isLastOwner && invitation.role !== "owner")) {
      await tx
        .insert(consoleMemberships)
        .values({ userId, serviceId: invitation.serviceId, role: invitation.role })
        .onConflictDoUpdate({
          target: [consoleMemberships.userId, consoleMemberships.serviceId],
          set: { role: invitation.role },
        });
    }
    const actor = { userId, email: invitation.email, ip: options.ip };
    await recordAuditEntry(tx, {
      actor,
      serviceId: invitation.serviceId,
      action: "invitation_accepted",
      target: `${invitation.email} (${invitation.role})`,
      at: now,
    });
    const session = await createConsoleSession(tx, {
      userId,
      stage: needsCode ? "code" : "active",
      clock,
      activeServiceId: invitation.serviceId,
    });
    if (!needsCode)
      await recordAuditEntry(tx, { actor, serviceId: null, action: "sign_in", target: "invitation", at: now });
    return { outcome: "joined", ...session, needsCode } as const;
  });
}
