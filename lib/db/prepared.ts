import type { Db } from "./client";

const cache = new WeakMap<Db, Map<string, unknown>>();

/**
 * Builds a drizzle prepared query once per database handle. Hot paths use it so a request
 * pays neither query building nor a server-side parse.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = cache.get(db);
  if (!byName) {
    byName = new Map();
    cache.set(db, byName);
  }
  let query = byName.get(name) as T | undefined;
  if (!query) {
    query = build(db);
    byName.set(name, query);
  }
  return query;
}
