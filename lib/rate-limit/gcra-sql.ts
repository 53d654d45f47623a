import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimits } from "../db/schema";
import type { RateLimitPolicy } from "./policies";

/** One limit as SQL: the key may be a placeholder or an expression over `from`. */
export interface SqlLimit {
  /** The CTE's name in the statement. */
  alias: string;
  policy: RateLimitPolicy;
  key: SQL | Placeholder;
  /** A FROM clause the key reads (user_auth: the token CTE); omitted: exactly one row. */
  from?: SQL;
}

/**
 * `gcraStep` (gcra.ts) as ONE upsert, so a check costs no round trip of its own and two
 * gateways racing on one key serialize on its row lock: the decision and the new TAT are
 * computed from the row as locked, never from a stale read. Insert and update both see
 * the same `precondition` through `excluded.allowed`.
 */
export function gcraUpsertSql(options: {
  policy: RateLimitPolicy;
  key: SQL | Placeholder;
  nowMs: SQL | Placeholder;
  precondition: SQL;
  from?: SQL;
}): SQL {
  const { policy, key, precondition } = options;
  const now = sql`${options.nowMs}::bigint`;
  // Validated integers (policies.ts), inlined so the planner sees constants.
  const interval = sql.raw(String(policy.intervalMs));
  const windowMs = sql.raw(String(policy.windowMs));
  const next = sql`greatest(rl.tat_ms, ${now}) + ${interval}`;
  const admits = sql`excluded.allowed and ${next} - ${now} <= ${windowMs}`;
  return sql`insert into rate_limits as rl (key, tat_ms, allowed)
    select ${key}, case when ${precondition} then ${now} + ${interval} else ${now} end, ${precondition}
    ${options.from ?? sql``}
    on conflict (key) do update set
      tat_ms = case when ${admits} then ${next} else rl.tat_ms end,
      allowed = ${admits}
    returning tat_ms, allowed`;
}

/**
 * The CTEs of a chain of limits, for a statement that also does the request's auth lookup.
 * Each limit is charged only if the previous one admitted the request (gcraChain).
 */
export function gcraCtes(db: Db, limits: readonly SqlLimit[], nowMs: SQL | Placeholder) {
  let precondition: SQL = sql`true`;
  return limits.map((limit) => {
    const cte = db
      .$with(limit.alias, { tatMs: rateLimits.tatMs, allowed: rateLimits.allowed })
      .as(gcraUpsertSql({ policy: limit.policy, key: limit.key, nowMs, precondition, from: limit.from }));
    precondition = sql`coalesce((select allowed from ${sql.identifier(limit.alias)}), false)`;
    return cte;
  });
}
