import { and, desc, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import { getConfig } from "../../config";
import { hashSecret, randomToken } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { consoleMemberships, consolePasswordResetRequests, consolePasswordResets, consoleUsers } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { logger } from "../../log";
import { configuredMailer } from "../../mail/mailer";
import { endUserSessions } from "./console-sessions";
import { consolePath } from "./console-paths";
import { hashPassword, passwordProblem } from "./passwords";
import { passwordResetMail } from "./password-reset-mail";
import { LOCKOUT_FAILURES, LOCKOUT_MS, LOCKOUT_WINDOW_MS, lockEnd, normalizeEmail } from "./sign-in-lockout";

/** Contract 13: a reset link works once, for one hour. */
export const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000;

/** Without a locale: the link opens in the browser's language (contract 10), as an invitation's does. */
export function resetPasswordUrl(token: string): string {
  return `${getConfig().publicBaseUrl}${consolePath.resetPassword("en", token).replace(/^\/en/, "")}`;
}

/** A new link for the user; only its token's hash is kept, the link is returned this once. */
async function insertResetLink(db: Db, userId: string, createdBy: string | null, now: Date): Promise<string> {
  const token = randomToken();
  await db.insert(consolePasswordResets).values({
    userId,
    tokenHash: hashSecret(token),
    createdBy,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_LIFETIME_MS),
  });
  return resetPasswordUrl(token);
}

export type ResetRequestResult =
  /** Said whether or not an account has the email: "if it has one, a link is on its way". */
  | { outcome: "accepted" }
  | { outcome: "locked"; until: Date }
  /** No SMTP_URL: nothing can be sent, to anyone; the page says so and where a link comes from instead. */
  | { outcome: "no_mail" };

/**
 * "Forgot password?" (contract 13). Counted per email typed as sign-ins are (10 in 15 minutes
 * refuse it 15 minutes), whether or not an account has it; the answer is the same either way,
 * and the email goes after the answer (not awaited), so neither its content nor its time tells.
 */
export async function requestPasswordReset(
  db: Db,
  options: { email: string; ip: string | null; clock?: Clock },
): Promise<ResetRequestResult> {
  const mailer = configuredMailer();
  if (!mailer) return { outcome: "no_mail" };
  const now = (options.clock ?? systemClock).now();
  const email = normalizeEmail(options.email);
  const recent = await db
    .select({ at: consolePasswordResetRequests.requestedAt })
    .from(consolePasswordResetRequests)
    .where(
      and(
        eq(consolePasswordResetRequests.email, email),
        gt(consolePasswordResetRequests.requestedAt, new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_MS)),
      ),
    )
    .orderBy(desc(consolePasswordResetRequests.requestedAt))
    .limit(LOCKOUT_FAILURES);
  const until = lockEnd(
    recent.map((row) => row.at),
    now,
  );
  if (until) return { outcome: "locked", until };
  const resetUrl = await db.transaction(async (tx) => {
    await tx.insert(consolePasswordResetRequests).values({ email, requestedAt: now });
    const [user] = await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, email));
    if (!user) return null;
    const url = await insertResetLink(tx, user.id, null, now);
    await recordAuditEntry(tx, {
      actor: { userId: user.id, email, ip: options.ip },
      serviceId: null,
      action: "password_reset_requested",
      target: email,
      at: now,
    });
    return url;
  });
  if (resetUrl) {
    // The link is never logged: it opens the account for an hour.
    mailer.send(passwordResetMail({ email, resetUrl })).catch((error: unknown) => {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error), to: email },
        "password reset email not sent",
      );
    });
  }
  return { outcome: "accepted" };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type MemberResetLinkResult =
  { outcome: "created"; resetUrl: string; email: string } | { outcome: "member_of_other_merchants" };

/**
 * An owner's reset link for a member of its merchant (the Team page), shown to the owner once.
 * A person who also belongs to a merchant the owner does not own is refused: the link would
 * open that other merchant's console to this owner. Another merchant's user is not found.
 */
export async function createMemberResetLink(
  db: Db,
  options: { actor: AuditActor & { userId: string }; serviceId: string; userId: string; clock?: Clock },
): Promise<MemberResetLinkResult> {
  if (!UUID.test(options.userId)) throw new ApiError("not_found", "No such member.");
  const now = (options.clock ?? systemClock).now();
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ email: consoleUsers.email })
      .from(consoleMemberships)
      .innerJoin(consoleUsers, eq(consoleUsers.id, consoleMemberships.userId))
      .where(and(eq(consoleMemberships.serviceId, options.serviceId), eq(consoleMemberships.userId, options.userId)));
    if (!member) throw new ApiError("not_found", "No such member.");
    const elsewhere = await tx
      .select({ serviceId: consoleMemberships.serviceId })
      .from(consoleMemberships)
      .where(and(eq(consoleMemberships.userId, options.userId), ne(consoleMemberships.serviceId, options.serviceId)));
    if (elsewhere.length > 0) {
      const owned = await tx
        .select({ serviceId: consoleMemberships.serviceId })
        .from(consoleMemberships)
        .where(
          and(
            eq(consoleMemberships.userId, options.actor.userId),
            eq(consoleMemberships.role, "owner"),
            inArray(
              consoleMemberships.serviceId,
              elsewhere.map((row) => row.serviceId),
            ),
          ),
        );
      if (owned.length < elsewhere.length) return { outcome: "member_of_other_merchants" };
    }
    const resetUrl = await insertResetLink(tx, options.userId, options.actor.userId, now);
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "password_reset_link_created",
      target: member.email,
      at: now,
    });
    return { outcome: "created", resetUrl, email: member.email };
  });
}

/**
 * The operator's link (`npm run merchant -- reset-password`, `actor` its CLI_ACTOR); null when no
 * console user has the email.
 */
export async function createResetLinkForEmail(
  db: Db,
  options: { email: string; actor: AuditActor; clock?: Clock },
): Promise<{ resetUrl: string } | null> {
  const now = (options.clock ?? systemClock).now();
  const email = normalizeEmail(options.email);
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, email));
    if (!user) return null;
    const resetUrl = await insertResetLink(tx, user.id, null, now);
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: null,
      action: "password_reset_link_created",
      target: email,
      at: now,
    });
    return { resetUrl };
  });
}

/** The reset a link names while it is unused and under an hour old: its user's email; null otherwise. */
export async function findOpenReset(
  db: Db,
  token: string,
  clock: Clock = systemClock,
): Promise<{ id: string; userId: string; email: string } | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select({ id: consolePasswordResets.id, userId: consolePasswordResets.userId, email: consoleUsers.email })
    .from(consolePasswordResets)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consolePasswordResets.userId))
    .where(
      and(
        eq(consolePasswordResets.tokenHash, hashSecret(token)),
        isNull(consolePasswordResets.usedAt),
        gt(consolePasswordResets.expiresAt, clock.now()),
      ),
    );
  return row ?? null;
}

export type ResetPasswordResult =
  { outcome: "reset" } | { outcome: "not_open" } | { outcome: "invalid_password"; problem: "too_short" | "too_long" };

/**
 * The link's page "Set password": the new password (the rules and hash of every password), the
 * link used (a second use, or one past its hour, finds nothing), every other open link of the
 * user closed, every session of the user ended, and the audit entry, in one transaction.
 */
export async function resetPassword(
  db: Db,
  options: { token: string; newPassword: string; ip: string | null; clock?: Clock },
): Promise<ResetPasswordResult> {
  const clock = options.clock ?? systemClock;
  const reset = await findOpenReset(db, options.token, clock);
  if (!reset) return { outcome: "not_open" };
  const problem = passwordProblem(options.newPassword);
  if (problem) return { outcome: "invalid_password", problem };
  const passwordHash = await hashPassword(options.newPassword);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(consolePasswordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(consolePasswordResets.id, reset.id),
          isNull(consolePasswordResets.usedAt),
          gt(consolePasswordResets.expiresAt, now),
        ),
      )
      .returning({ id: consolePasswordResets.id });
    if (claimed.length === 0) return { outcome: "not_open" } as const;
    await tx
      .update(consolePasswordResets)
      .set({ usedAt: now })
      .where(and(eq(consolePasswordResets.userId, reset.userId), isNull(consolePasswordResets.usedAt)));
    await tx.update(consoleUsers).set({ passwordHash }).where(eq(consoleUsers.id, reset.userId));
    await endUserSessions(tx, reset.userId);
    await recordAuditEntry(tx, {
      actor: { userId: reset.userId, email: reset.email, ip: options.ip },
      serviceId: null,
      action: "password_reset",
      target: reset.email,
      at: now,
    });
    return { outcome: "reset" } as const;
  });
}
