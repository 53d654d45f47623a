import type { Sql } from "postgres";

/** One postgres.js pool's use, counted by the wrappers below (postgres.js keeps its queues private). */
interface PoolUse {
  active: number;
  max: number;
}

const shared = globalThis as { gatewayPools?: Set<PoolUse> };
const pools = (shared.gatewayPools ??= new Set());

/**
 * Counts what holds or waits for a connection of `sql`'s pool: each statement sent outside a
 * transaction until it answers, each transaction until it ends (statements inside one run on
 * its connection and are not counted again). More at once than the pool's size are waiting.
 * A statement costs one counter step each way and one `then` on its promise. Returns the
 * function that stops counting (the pool's close).
 */
export function countPoolUse(sql: Sql, max: number): () => void {
  const use: PoolUse = { active: 0, max };
  pools.add(use);
  const release = () => {
    use.active -= 1;
  };
  const unsafe = sql.unsafe;
  sql.unsafe = function (this: Sql, ...args: Parameters<Sql["unsafe"]>) {
    const query = unsafe.apply(this, args);
    use.active += 1;
    // A cursor (the CSV export's) must be asked for before the query runs, and a `then` runs it
    // as a plain query: so the count waits a microtask, after the caller's `.values()`, `.raw()`
    // or `.cursor()`, and a cursor is not counted (it would hold the count until its last batch).
    let cursor = false;
    const openCursor = query.cursor;
    query.cursor = function (this: typeof query, ...cursorArgs: unknown[]) {
      cursor = true;
      return (openCursor as (...a: unknown[]) => unknown).apply(this, cursorArgs);
    } as typeof query.cursor;
    queueMicrotask(() => (cursor ? release() : void query.then(release, release)));
    return query;
  } as Sql["unsafe"];
  const begin = sql.begin;
  sql.begin = function (this: Sql, ...args: unknown[]) {
    use.active += 1;
    return (begin as (...args: unknown[]) => Promise<unknown>).apply(this, args).finally(release);
  } as Sql["begin"];
  return () => pools.delete(use);
}

/** Connections in use, statements waiting, and the pools' sizes, over this process's open pools. */
export function poolUsage(): { inUse: number; waiting: number; max: number } {
  let inUse = 0;
  let waiting = 0;
  let max = 0;
  for (const use of pools) {
    inUse += Math.min(use.active, use.max);
    waiting += Math.max(0, use.active - use.max);
    max += use.max;
  }
  return { inUse, waiting, max };
}
