import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import type { GcraDecision } from "./gcra";
import { gcraCtes } from "./gcra-sql";
import type { RateLimitCheck } from "./policies";

/**
 * Charges a chain of limits in one statement. Auth folds its limits into its own lookup
 * (lib/auth/authenticate.ts); this standalone form serves requests with no lookup to fold
 * into (card finalize) and the store tests.
 */
export async function consumeInPostgres(
  db: Db,
  checks: readonly RateLimitCheck[],
  nowMs: number,
): Promise<GcraDecision[]> {
  if (checks.length === 0) return [];
  const name = `rate_limit_${checks.map((check) => check.policy.name).join("_")}`;
  const query = prepared(db, name, (db) => {
    const ctes = gcraCtes(
      db,
      checks.map((check, index) => ({
        alias: `limit_${index}`,
        policy: check.policy,
        key: sql.placeholder(`key${index}`),
      })),
      sql.placeholder("nowMs"),
    );
    const selection = Object.fromEntries(
      ctes.flatMap((cte, index) => [
        [`tat${index}`, cte.tatMs],
        [`allowed${index}`, cte.allowed],
      ]),
    );
    const [first, ...rest] = ctes;
    // The chain's length varies by caller, so the builder is typed loosely here.
    let select: any = db
      .with(...ctes)
      .select(selection)
      .from(first!)
      .$dynamic();
    for (const cte of rest) select = select.innerJoin(cte, sql`true`);
    return select.prepare(name) as { execute(params: Record<string, unknown>): Promise<Record<string, unknown>[]> };
  });
  const params: Record<string, unknown> = { nowMs };
  checks.forEach((check, index) => (params[`key${index}`] = check.key));
  const [row] = await query.execute(params);
  if (!row) throw new Error("rate limit upsert returned no row");
  return checks.map((_, index) => ({ tatMs: Number(row[`tat${index}`]), allowed: row[`allowed${index}`] === true }));
}
