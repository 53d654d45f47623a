import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { buildPendingIndexesConcurrently, pendingIndexes } from "@/lib/db/concurrent-indexes";
import { recreateDatabase } from "@/scripts/lib/recreate-database";

// An upgrade from the release before the console's indexes (0009, 0010): they are built
// CONCURRENTLY before drizzle's one-transaction migration, which then finds them made.

const MIGRATIONS = path.join(process.cwd(), "drizzle");
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};
const url = new URL(process.env.DATABASE_URL!);
url.pathname = `/gateway_concurrent_indexes_${process.pid}`;
let sql: postgres.Sql;
let before0009: string;

/** drizzle/ up to (without) the given migration, as that release shipped it. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), "gateway-migrations-before-"));
  const entries = journal.entries.slice(
    0,
    journal.entries.findIndex((entry) => entry.tag === tag),
  );
  cpSync(path.join(MIGRATIONS, "meta"), path.join(folder, "meta"), { recursive: true });
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }, null, 2));
  for (const entry of entries) cpSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

const indexes = async () =>
  sql<
    { name: string; valid: boolean }[]
  >`select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname in ('payments_service_created_idx', 'payments_service_state_created_idx',
      'customers_service_name_idx', 'card_payments_last4_idx')
    order by 1`;

beforeAll(async () => {
  await recreateDatabase(url.toString());
  sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  before0009 = migrationsBefore("0009_console_payments");
  await migrate(drizzle({ client: sql }), { migrationsFolder: before0009 });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await recreateDatabase(url.toString(), { dropOnly: true });
  if (before0009) rmSync(before0009, { recursive: true, force: true });
});

describe("pending indexes built concurrently before the migrations", () => {
  it("builds pending migrations' indexes on existing tables and columns; the migrations apply on top", async () => {
    expect(
      (await pendingIndexes(sql, MIGRATIONS)).find((index) => index.name === "payments_service_created_idx")
        ?.concurrently,
    ).toMatch(
      new RegExp(
        /^CREATE INDEX CONCURRENTLY IF NOT EXISTS "payments_service_created_idx" ON "payments" /.source +
          /USING btree \("service_id", "created_at", "id"\)\s+INCLUDE/.source,
      ),
    );
    // One left invalid by an interrupted build: dropped and built again.
    await sql`create index "customers_service_name_idx" on customers (service_id)`;
    await sql`update pg_index set indisvalid = false where indexrelid = 'customers_service_name_idx'::regclass`;

    const built = await buildPendingIndexesConcurrently(sql, MIGRATIONS);
    expect(built).toEqual(
      expect.arrayContaining([
        "payments_service_created_idx",
        "payments_service_state_created_idx",
        "customers_service_name_idx",
        "payments_customer_created_idx",
      ]),
    );
    // card_last4 and payment_state_changes come with 0009 itself: its transaction builds those.
    expect(built).not.toContain("card_payments_last4_idx");
    expect(built).not.toContain("payment_state_changes_payment_idx");
    expect(await indexes()).toEqual([
      { name: "customers_service_name_idx", valid: true },
      { name: "payments_service_created_idx", valid: true },
      { name: "payments_service_state_created_idx", valid: true },
    ]);

    await migrate(drizzle({ client: sql }), { migrationsFolder: MIGRATIONS });
    expect((await indexes()).map((index) => [index.name, index.valid])).toEqual([
      ["card_payments_last4_idx", true],
      ["customers_service_name_idx", true],
      ["payments_service_created_idx", true],
      ["payments_service_state_created_idx", true],
    ]);
    // The rebuilt index is the migration's, not the one left invalid.
    const [definition] = await sql<
      { text: string }[]
    >`select pg_get_indexdef('customers_service_name_idx'::regclass) as text`;
    expect(definition!.text).toContain("lower(name) text_pattern_ops");
    // Nothing is pending any more.
    expect(await pendingIndexes(sql, MIGRATIONS)).toEqual([]);
  });

  it("lets two gateways upgrade one database at once: the second waits for the first, no deadlock", async () => {
    const twinUrl = new URL(url);
    twinUrl.pathname = `/gateway_concurrent_indexes_twins_${process.pid}`;
    await recreateDatabase(twinUrl.toString());
    const twin = postgres(twinUrl.toString(), { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle({ client: twin }), { migrationsFolder: before0009 });
      const opened = await Promise.allSettled(
        [0, 1].map(() => openDatabase({ databaseUrl: twinUrl.toString(), pgliteDir: "memory://", poolSize: 1 })),
      );
      for (const result of opened) if (result.status === "fulfilled") await result.value.close();
      expect(opened.map((result) => (result.status === "rejected" ? String(result.reason) : "opened"))).toEqual([
        "opened",
        "opened",
      ]);
      const [valid] = await twin<
        { count: number }[]
      >`select count(*)::int as count from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname in ('payments_service_created_idx', 'payments_service_state_created_idx',
          'customers_service_name_idx', 'card_payments_last4_idx') and i.indisvalid`;
      expect(valid!.count).toBe(4);
    } finally {
      await twin.end({ timeout: 5 });
      await recreateDatabase(twinUrl.toString(), { dropOnly: true });
    }
  });
});
