import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { systemClock, type Clock } from "../../clock";
import { hashSecret, randomToken } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { consoleSessions } from "../../db/schema";
import { preparedStatement } from "../../db/prepared";
import { sqlRows } from "../../db/sql-rows";
import { parseMemberships, membershipsOfUserSql, type Membership } from "./memberships";
import { activeSessionBounds, sessionIsLive, useNoteDueBefore } from "./session-rules";

export type SessionStage = "code" | "active";

export interface LiveSession {
  id: string;
  stage: SessionStage;
  activeServiceId: string | null;
  user: { id: string; email: string; name: string; twoStepOn: boolean };
  /**
   * A form's redirect left a message to show once (lib/console/web/console-flash.ts): only then is
   * it taken, a write.
   */
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
 * or is 7 days old. A live session's use is noted (the idle clock restarts; to the minute,
 * session-rules.ts).
 */
export async function resolveConsoleSession(
  db: Db,
  token: string | null | undefined,
  clock: Clock = systemClock,
): Promise<LiveSession | null> {
  return (await resolveConsoleSessionWithMemberships(db, token, clock))?.session ?? null;
}

/**
 * `resolveConsoleSession` and the user's memberships (with each merchant's two-step policy), in
 * one statement: every signed-in console page and form opens with it, before its own query.
 */
export async function resolveConsoleSessionWithMemberships(
  db: Db,
  token: string | null | undefined,
  clock: Clock = systemClock,
): Promise<{ session: LiveSession; memberships: Membership[] } | null> {
  if (!token || token.length > 100) return null;
  const now = clock.now();
  const bounds = activeSessionBounds(now);
  const result = await sessionStatement(db).execute({
    tokenHash: hashSecret(token),
    now: now.toISOString(),
    createdAfter: bounds.createdAfter.toISOString(),
    usedAfter: bounds.usedAfter.toISOString(),
    noteDueBefore: useNoteDueBefore(now).toISOString(),
  });
  const [row] = sqlRows<SessionRow>(result);
  if (!row) return null;
  const stored = {
    stage: row.stage,
    createdAt: new Date(row.createdMs),
    lastUsedAt: new Date(row.lastUsedMs),
    ended: row.ended,
  };
  if (!sessionIsLive(stored, now)) return null;
  return {
    session: {
      id: row.id,
      stage: row.stage,
      activeServiceId: row.activeServiceId,
      user: { id: row.userId, email: row.email, name: row.name, twoStepOn: row.twoStepOn },
      flashWaiting: row.flashWaiting,
    },
    memberships: parseMemberships(row.memberships),
  };
}

interface SessionRow {
  id: string;
  stage: SessionStage;
  activeServiceId: string | null;
  flashWaiting: boolean;
  createdMs: number;
  lastUsedMs: number;
  ended: boolean;
  userId: string;
  email: string;
  name: string;
  twoStepOn: boolean;
  memberships: string;
}

// The UPDATE notes the use of a session the rules of session-rules.ts keep live (the same bounds,
// as parameters) whose last note is due; the SELECT reads the row as it was before, which
// `sessionIsLive` judges. PostgreSQL runs a data-modifying WITH whether or not it is read.
const sessionStatement = (db: Db) =>
  preparedStatement(
    db,
    "console_session_resolve",
    () => sql`
  WITH found AS (
    SELECT s.id, s.stage, s.active_service_id,
           s.flash_sealed IS NOT NULL AS flash_waiting, s.ended_at IS NOT NULL AS ended,
           (extract(epoch FROM s.created_at) * 1000)::float8 AS created_ms,
           (extract(epoch FROM s.last_used_at) * 1000)::float8 AS last_used_ms,
           u.id AS user_id, u.email, u.name, u.totp_secret_encrypted IS NOT NULL AS two_step_on
    FROM console_sessions s JOIN console_users u ON u.id = s.user_id
    WHERE s.token_hash = ${sql.placeholder("tokenHash")}
  ), noted AS (
    UPDATE console_sessions s SET last_used_at = ${sql.placeholder("now")}::timestamptz
    FROM found
    WHERE s.id = found.id AND s.stage = 'active' AND s.ended_at IS NULL
      AND s.created_at > ${sql.placeholder("createdAfter")}::timestamptz
      AND s.last_used_at > ${sql.placeholder("usedAfter")}::timestamptz
      AND s.last_used_at <= ${sql.placeholder("noteDueBefore")}::timestamptz
    RETURNING s.id
  )
  SELECT found.id, found.stage, found.active_service_id AS "activeServiceId", found.flash_waiting AS "flashWaiting",
         found.created_ms AS "createdMs", found.last_used_ms AS "lastUsedMs", found.ended,
         found.user_id AS "userId", found.email, found.name, found.two_step_on AS "twoStepOn",
         ${membershipsOfUserSql(sql`found.user_id`)} AS memberships
  FROM found
  `,
  );

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

/**
 * A step up (the code step passed, a required two-step set up): the session ends and a new one,
 * with a new token, carries on from it, so a token that was planted in a browser, or seen before
 * the step, never becomes a full session. Null when the session had ended meanwhile.
 */
export async function replaceConsoleSession(
  db: Db,
  sessionId: string,
  options: { stage: SessionStage; clock?: Clock },
): Promise<{ token: string; sessionId: string } | null> {
  const [ended] = await db
    .update(consoleSessions)
    .set({ endedAt: (options.clock ?? systemClock).now() })
    .where(and(eq(consoleSessions.id, sessionId), isNull(consoleSessions.endedAt)))
    .returning({ userId: consoleSessions.userId, activeServiceId: consoleSessions.activeServiceId });
  if (!ended) return null;
  return createConsoleSession(db, { ...ended, stage: options.stage, clock: options.clock });
}

/** The session a browser's cookie names ends (a sign-in replaces it): its token opens nothing afterwards. */
export async function endConsoleSessionOfToken(db: Db, token: string): Promise<void> {
  await db
    .update(consoleSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(consoleSessions.tokenHash, hashSecret(token)), isNull(consoleSessions.endedAt)));
}

export async function setActiveMerchant(db: Db, sessionId: string, serviceId: string): Promise<void> {
  await db.update(consoleSessions).set({ activeServiceId: serviceId }).where(eq(consoleSessions.id, sessionId));
}
