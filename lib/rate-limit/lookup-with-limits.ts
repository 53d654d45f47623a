import type { Db } from "../db/client";
import type { GcraDecision } from "./gcra";
import type { RateLimitCheck } from "./policies";
import type { RequestRateLimit } from "./request-rate-limit";
import { consumeRateLimits, rateLimitBackend } from "./store";

/**
 * Runs an auth lookup together with the limits of the credential it checks, and records
 * the outcome (throwing 429 when refused) before the caller judges the credential: a
 * refused request learns nothing about its credential, and a failed authentication still
 * counts. On PostgreSQL the limits ride in the lookup's own statement (`inOneStatement`), so auth
 * plus limits stay one round trip; on Redis the script runs beside the plain lookup.
 */
export async function lookupWithLimits<Row>(options: {
  db: Db;
  rateLimit: RequestRateLimit;
  /** The checks, or a function of the found row when the key comes from the lookup (user_auth). */
  checks: readonly RateLimitCheck[] | ((row: Row) => readonly RateLimitCheck[]);
  /** One statement: the row (if any) and the decisions of the checks, in order. */
  inOneStatement: (nowMs: number) => Promise<{ row: Row | undefined; decisions: GcraDecision[] }>;
  lookupOnly: () => Promise<Row | undefined>;
}): Promise<Row | undefined> {
  const { db, rateLimit, checks } = options;
  const checksFor = (row: Row | undefined) => (typeof checks === "function" ? (row ? checks(row) : []) : checks);
  const nowMs = rateLimit.nowMs();

  if (rateLimitBackend() === "postgres") {
    const { row, decisions } = await options.inOneStatement(nowMs);
    const applied = checksFor(row);
    if (applied.length > 0 && decisions.length === applied.length) rateLimit.record(applied, decisions, nowMs);
    return row;
  }

  if (typeof checks !== "function") {
    const [row, decisions] = await Promise.all([options.lookupOnly(), consumeRateLimits(db, checks, nowMs)]);
    if (decisions) rateLimit.record(checks, decisions, nowMs);
    return row;
  }
  const row = await options.lookupOnly();
  if (row) {
    const applied = checks(row);
    const decisions = await consumeRateLimits(db, applied, nowMs);
    if (decisions) rateLimit.record(applied, decisions, nowMs);
  }
  return row;
}
