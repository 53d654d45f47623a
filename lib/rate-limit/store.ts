import { getConfig } from "../config";
import type { Db } from "../db/client";
import { logger } from "../log";
import type { GcraDecision } from "./gcra";
import type { RateLimitCheck } from "./policies";
import { consumeInPostgres } from "./postgres-store";
import { getRedisRateLimitStore } from "./redis-store";

/** Where every instance keeps the shared counts: Redis when REDIS_URL is set, else PostgreSQL. */
export type RateLimitBackend = "postgres" | "redis";

export function rateLimitBackend(): RateLimitBackend {
  return getConfig().REDIS_URL ? "redis" : "postgres";
}

/**
 * Charges a chain of limits in the configured store: one statement or one EVALSHA. Null
 * means Redis could not answer: the request goes on unlimited (logged) rather than failing,
 * because the limits guard capacity, while credentials (256-bit random) need no brake to
 * resist guessing. PostgreSQL errors propagate: without it nothing works anyway.
 */
export async function consumeRateLimits(
  db: Db,
  checks: readonly RateLimitCheck[],
  nowMs: number,
): Promise<GcraDecision[] | null> {
  if (rateLimitBackend() === "postgres") return consumeInPostgres(db, checks, nowMs);
  try {
    return await (await getRedisRateLimitStore()).consume(checks, nowMs);
  } catch (error) {
    // Once per interval, not once per request: an outage must not flood the logs.
    if (nowMs - lastOutageLogMs >= OUTAGE_LOG_INTERVAL_MS) {
      lastOutageLogMs = nowMs;
      logger.error({ err: error }, "rate limit store (redis) unavailable; requests admitted without limits");
    }
    return null;
  }
}

const OUTAGE_LOG_INTERVAL_MS = 10_000;
let lastOutageLogMs = -Infinity;
