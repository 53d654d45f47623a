import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/** The clock port: every time rule reads a Clock, never Date.now() directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The sandbox moves one service's time forward; production services keep offset 0. */
export function serviceClock(service: { clockOffsetSeconds: number }, base: Clock = systemClock): Clock {
  const offsetMs = service.clockOffsetSeconds * 1000;
  if (offsetMs === 0) return base;
  return { now: () => new Date(base.now().getTime() + offsetMs) };
}

/**
 * `serviceClock` inside a query, for rules a statement applies to many rows or in one round
 * trip: the service's offset column added to `at` (one reading of the app's clock), or to the
 * database's now() where the statement is prepared once and runs without a time parameter.
 */
export function serviceNowSql(clockOffsetSeconds: AnyColumn, at?: Date): SQL {
  const base = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql`(${base} + make_interval(secs => ${clockOffsetSeconds}))`;
}
