import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/sql-rows";
import { claimDueNotifications } from "@/lib/notifications/claim-due-notifications";
import { reconcileProviderOperations } from "@/lib/provider-operation-registry/reconcile-provider-operations";

// The job runner polls these every half second or two: each must be a named statement that its
// connection parsed once and runs again, not an unnamed one parsed, described and planned on
// every poll. A pool of one connection makes pg_prepared_statements that connection's own list
// (and shows such a pool opens: its migration lock used to take the only connection, and hang).
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDir: "memory://", poolSize: 1 });
});
afterAll(() => handle.close());

async function runsOf(statementStart: string): Promise<number[]> {
  const rows = sqlRows<{ runs: number }>(
    await handle.db.execute(
      sql`select (generic_plans + custom_plans)::int as runs from pg_prepared_statements
        where ltrim(statement, E' \n\t') like ${statementStart + "%"}`,
    ),
  );
  return rows.map((row) => row.runs);
}

it("runs the webhook claim as one prepared statement, poll after poll", async () => {
  // LIMIT 0 claims nothing: other test files' notifications stay where they are.
  for (let poll = 0; poll < 3; poll += 1) {
    expect(await claimDueNotifications(handle.db, { limit: 0, workerId: "prepared-statement-test" })).toEqual([]);
  }
  expect(await runsOf("WITH due AS")).toEqual([3]);
});

it("runs the provider operations' reconciliation claim as one prepared statement", async () => {
  // Due before 1970: nothing is, so no other test's operation is claimed.
  for (let poll = 0; poll < 3; poll += 1)
    expect(await reconcileProviderOperations(handle.db, { now: new Date(0) })).toBe(0);
  expect(await runsOf('UPDATE "provider_operations"')).toEqual([3]);
});
