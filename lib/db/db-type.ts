import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: every query function takes one as its first argument. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
