import { Column, DrizzleQueryError, entityKind, fillPlaceholders, getTableName, is, SQL, Subquery } from "drizzle-orm";
import { NoopCache } from "drizzle-orm/cache/core";

/**
 * The row mapping of a prepared query on postgres.js, resolved once instead of per row.
 *
 * drizzle maps each row column by column (`mapResultRow`), asking `is()` of every column which
 * kind of field it is before decoding it, and wraps each execution in tracing closures; on the
 * hot statements (auth, the payment read, create's insert) that was about a thirtieth of a
 * check's CPU. This resolves each column's decoder, its place in the result and its table (for
 * the left-join rule: a joined table whose columns all come back null becomes `null`) when the
 * statement is built, then maps every row with the same decoders in the same order: the rows
 * are the ones drizzle would answer, and an error is the same `DrizzleQueryError`.
 *
 * Anything else (PGlite, a query with a cache or a custom result mapper, a statement without
 * fields) keeps drizzle's own `execute`.
 */

type Decoder = { mapFromDriverValue(value: unknown): unknown };
type SelectedField = { path: string[]; field: unknown };
type Step = { path: readonly string[]; decoder: Decoder; joinedTable: string | null };
type Row = Record<string, unknown>;

interface PostgresJsQuery {
  client: { unsafe(query: string, params: unknown[], options: { prepare?: boolean }): { values(): Promise<unknown[][]> } };
  queryString: string;
  params: unknown[];
  prepare?: boolean;
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  cache?: unknown;
  queryMetadata?: unknown;
  logger: { logQuery(query: string, params: unknown[]): void };
  execute(placeholderValues?: Record<string, unknown>): Promise<unknown>;
}

/** Gives `query` (a drizzle prepared query) the resolved row mapping when it runs on postgres.js. */
export function useResolvedRowMapping<T>(query: T): T {
  // By its kind's name: importing drizzle-orm/postgres-js here would load postgres.js on PGlite too.
  if ((query as { constructor?: { [entityKind]?: string } } | null)?.constructor?.[entityKind] !== "PostgresJsPreparedQuery") return query;
  const target = query as unknown as PostgresJsQuery;
  const { fields, customResultMapper, cache, queryMetadata } = target;
  // The conditions under which drizzle itself runs the query straight (no result cache).
  const uncached = cache === undefined || is(cache, NoopCache) || queryMetadata === undefined;
  if (!fields || customResultMapper || !uncached) return query;
  const mapRow = compileRowMapper(fields, target.joinsNotNullableMap);
  target.execute = async function execute(this: PostgresJsQuery, placeholderValues: Record<string, unknown> = {}) {
    const params = fillPlaceholders(this.params, placeholderValues);
    this.logger.logQuery(this.queryString, params);
    let rows: unknown[][];
    try {
      rows = await this.client.unsafe(this.queryString, params, { prepare: this.prepare }).values();
    } catch (error) {
      throw new DrizzleQueryError(this.queryString, params, error as Error);
    }
    return rows.map(mapRow);
  };
  return query;
}

// `decoder` is drizzle's internal name for what an SQL fragment maps its value with.
type WithDecoder = { decoder: Decoder };

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as WithDecoder).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder;
  return (field as { sql: WithDecoder }).sql.decoder;
}

/** drizzle's `mapResultRow` with every per-column decision taken once. */
export function compileRowMapper(fields: SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined): (row: unknown[]) => Row {
  const steps: Step[] = fields.map(({ path, field }) => ({
    path,
    decoder: decoderOf(field),
    joinedTable: joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
  }));
  const nullable = joinsNotNullableMap !== undefined && steps.some((step) => step.joinedTable !== null);
  return (row) => {
    const result: Row = {};
    const nullifyMap: Record<string, string | false> = {};
    for (let index = 0; index < steps.length; index += 1) {
      const { path, decoder, joinedTable } = steps[index]!;
      let node = result;
      for (let depth = 0; depth < path.length - 1; depth += 1) {
        const chunk = path[depth]!;
        if (!(chunk in node)) node[chunk] = {};
        node = node[chunk] as Row;
      }
      const raw = row[index];
      const value = (node[path[path.length - 1]!] = raw === null ? null : decoder.mapFromDriverValue(raw));
      if (joinedTable !== null) {
        const objectName = path[0]!;
        if (!(objectName in nullifyMap)) nullifyMap[objectName] = value === null ? joinedTable : false;
        else if (typeof nullifyMap[objectName] === "string" && nullifyMap[objectName] !== joinedTable) nullifyMap[objectName] = false;
      }
    }
    if (nullable) {
      for (const objectName in nullifyMap) {
        const tableName = nullifyMap[objectName];
        if (typeof tableName === "string" && !joinsNotNullableMap![tableName]) result[objectName] = null;
      }
    }
    return result;
  };
}
