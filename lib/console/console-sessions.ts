import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { systemClock, type Clock } from "../clock";
import { hashSecret, randomToken } from "../crypto/secrets";
import type { Db } from "../db/client";
import { consoleSessions, consoleUsers } from "../db/schema";
import { sessionIsLive } from "./session-rules";

export type SessionStage = "code" | "active";

export interface LiveSession {
  id: string;
  stage: SessionStage;
  activeServiceId: string | null;
  user: { id: string; email: string; name: string; twoStepOn: boolean };
  /** A form's redirect left a message to show once (lib/console/console-flash.ts): only then is it taken, a write. */
  flashWaiting: boolean;
}

/** A new session; the token goes into the cookie, only its hash into the table. */
export async function createConsoleSession(
  db: Db,
  options: { userId: string; stage: SessionStage; clock?: Clock; activeServiceId?: string | null },
): Promise<{ token: string; sessionId: string }> {
  const now = (options.clock ?? systemClock).now();
  const token = randomToken();
  const [row] = await db
    .insert(consoleSessions)
    .values({
      tokenHash: hashSecret(token),
      userId: options.userId,
      stage: options.stage,
      createdAt: now,
      lastUsedAt: now,
      activeServiceId: options.activeServiceId ?? null,
    })
    .returning({ id: consoleSessions.id });
  return { token, sessionId: row!.id };
}

/**
 * The session a cookie's token opens, or null when there is none, it ended, sat idle 12 hours
 * or is 7 days old. A live session's use is noted (the idle clock restarts).
 */
export async function resolveConsoleSession(db: Db, token: string | null | undefined, clock: Clock = systemClock): Promise<LiveSession | null> {
  if (!token || token.length > 100) return null;
  const now = clock.now();
  const [row] = await db
    .select({ session: consoleSessions, user: consoleUsers })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .where(eq(consoleSessions.tokenHash, hashSecret(token)));
  if (!row || !sessionIsLive(row.session, now)) return null;
  if (row.session.stage === "active") {
    await db.update(consoleSessions).set({ lastUsedAt: now }).where(eq(consoleSessions.id, row.session.id));
  }
  return {
    id: row.session.id,
    stage: row.session.stage,
    activeServiceId: row.session.activeServiceId,
    user: { id: row.user.id, email: row.user.email, name: row.user.name, twoStepOn: row.user.totpSecretEncrypted !== null },
    flashWaiting: row.session.flashSealed !== null,
  };
}

/** Signing out ends the session at once: its token opens nothing afterwards. */
export async function endConsoleSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(consoleSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(consoleSessions.id, sessionId), isNull(consoleSessions.endedAt)));
}

/** Every other session of the user (password change); with no exception, all of them (sign out everywhere). */
export async function endUserSessions(db: Db, userId: string, exceptSessionId?: string): Promise<void> {
  const filters = [eq(consoleSessions.userId, userId), isNull(consoleSessions.endedAt)];
  if (exceptSessionId) filters.push(ne(consoleSessions.id, exceptSessionId));
  await db
    .update(consoleSessions)
    .set({ endedAt: sql`now()` })
    .where(and(...filters));
}

export async function setSessionStage(db: Db, sessionId: string, stage: SessionStage, clock: Clock = systemClock): Promise<void> {
  await db.update(consoleSessions).set({ stage, lastUsedAt: clock.now() }).where(eq(consoleSessions.id, sessionId));
}

export async function setActiveMerchant(db: Db, sessionId: string, serviceId: string): Promise<void> {
  await db.update(consoleSessions).set({ activeServiceId: serviceId }).where(eq(consoleSessions.id, sessionId));
}
