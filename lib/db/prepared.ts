import type { SQL } from "drizzle-orm";
import { PgDialect, type PgSession } from "drizzle-orm/pg-core";
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

type BoundQuery = { client: unknown };
const builtPerDriver = new WeakMap<object, Map<string, BoundQuery>>();

/**
 * `prepared` for statements that also run inside a transaction. drizzle binds a prepared query
 * to the connection of the handle it was built on, and a transaction is a connection of its
 * own, so `prepared` cannot serve it. The SQL text and parameter order depend only on the
 * driver, so the query is built once per driver and each call gets a view of it bound to the
 * caller's connection (`client`, which every drizzle driver's prepared query runs on): no
 * query building per request, and postgres.js reuses the statement the connection parsed.
 */
export function preparedOn<T extends object>(db: Db, name: string, build: (db: Db) => T): T {
  const session = db._.session as unknown as { client: unknown; constructor: object };
  let byName = builtPerDriver.get(session.constructor);
  if (!byName) {
    byName = new Map();
    builtPerDriver.set(session.constructor, byName);
  }
  let query = byName.get(name);
  if (!query) {
    const built = build(db) as unknown as BoundQuery;
    // A driver whose prepared query does not run on `client` would silently run outside the transaction.
    if (built.client !== session.client) throw new Error(`prepared query ${name} is not bound to its session's client`);
    query = built;
    byName.set(name, query);
  }
  if (query.client === session.client) return query as unknown as T;
  return Object.create(query, { client: { value: session.client } }) as T;
}

type PreparedStatement = { execute(values: Record<string, unknown>): Promise<unknown> };
// The raw statements are written without a table's casing rules, so a plain dialect renders them.
const rawDialect = new PgDialect();

/**
 * `preparedOn` for a hand-written statement (`sql` with `sql.placeholder`s for its values).
 * `db.execute` sends a statement unnamed: PostgreSQL parses and plans it on every run, and
 * postgres.js asks for its parameter types first, a round trip of its own. Named, a connection
 * does that once. The answer is `db.execute`'s: the rows on postgres.js, `{ rows }` on PGlite
 * (read it with `sqlRows`). Only for text that never changes between calls: each distinct text
 * stays prepared on every connection that ran it.
 */
export function preparedStatement(db: Db, name: string, build: () => SQL): PreparedStatement {
  return preparedOn(db, name, (db) => {
    const session = db._.session as unknown as PgSession;
    return session.prepareQuery(rawDialect.sqlToQuery(build()), undefined, name, false) as unknown as PreparedStatement;
  });
}
