import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { consoleSignInFailures } from "../../db/schema";
import { metrics } from "../../metrics/gateway-metrics";

/** Contract 13: 10 failures for one email within 15 minutes refuse it for 15 minutes. */
export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_MS = 15 * 60 * 1000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * When the email may try again, or null when it may now. Counted per email typed, whether or
 * not an account has it, so the refusal tells nothing about who has one. While refused, no
 * attempt is checked or counted, so the lock is the 10th failure plus 15 minutes.
 */
export async function lockedUntil(db: Db, email: string, now: Date): Promise<Date | null> {
  const recent = await db
    .select({ failedAt: consoleSignInFailures.failedAt })
    .from(consoleSignInFailures)
    .where(
      and(
        eq(consoleSignInFailures.email, normalizeEmail(email)),
        gt(consoleSignInFailures.failedAt, new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_MS)),
      ),
    )
    .orderBy(desc(consoleSignInFailures.failedAt))
    .limit(LOCKOUT_FAILURES);
  return lockEnd(
    recent.map((row) => row.failedAt),
    now,
  );
}

/**
 * The rule itself, for any attempts counted per email (failed sign-ins, password reset
 * requests): given the newest attempts first (at most LOCKOUT_FAILURES of the last 30 minutes),
 * when the email may try again, or null.
 */
export function lockEnd(recentNewestFirst: readonly Date[], now: Date): Date | null {
  if (recentNewestFirst.length < LOCKOUT_FAILURES) return null;
  const newest = recentNewestFirst[0]!.getTime();
  const tenthNewest = recentNewestFirst[LOCKOUT_FAILURES - 1]!.getTime();
  if (newest - tenthNewest > LOCKOUT_WINDOW_MS) return null;
  const until = new Date(newest + LOCKOUT_MS);
  return until > now ? until : null;
}

export async function recordSignInFailure(db: Db, email: string, now: Date): Promise<void> {
  await db.insert(consoleSignInFailures).values({ email: normalizeEmail(email), failedAt: now });
  metrics.consoleSignInFailures.inc();
  // No attempt is counted while an email is locked, so a failure that finds it locked is the one that locked it.
  if (await lockedUntil(db, email, now)) metrics.consoleLockouts.inc();
}

/**
 * Serializes the attempts on one email until the transaction ends: the lock check, the attempt
 * and the failure it records are then one step, so a burst sent at once cannot all pass the
 * check before any failure is counted. Only for a cheap attempt (the code step): a password's
 * hash takes long enough that holding a connection through it would let a burst drain the pool.
 */
export async function serializeAttemptsOn(tx: Db, email: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`console-sign-in:${normalizeEmail(email)}`}))`);
}
