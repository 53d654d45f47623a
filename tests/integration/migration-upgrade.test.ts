import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { API_CAUSE } from "../../lib/payments/core/state-change-cause";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientPrincipal, ServiceContext, UserPrincipal } from "@/lib/auth/principal";
import { serviceClock } from "@/lib/clock";
import { createCustomer } from "@/lib/customers/create-customer";
import { searchCustomerByPhone } from "@/lib/customers/search-customer";
import type { Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { SIMULATOR_MIGRATIONS } from "@/lib/db/simulator-tables";
import { sqlRows } from "@/lib/db/sql-rows";
import { onboardMerchant } from "@/lib/merchants/onboard-merchant";
import { checkPayment } from "@/lib/payments/operations/check-payment";
import { createPaymentIntent } from "@/lib/payments/operations/create-payment-intent";
import { serviceCreator } from "@/lib/payments/operations/intent-creator";
import { proceedPayment } from "@/lib/payments/operations/proceed-payment";
import { recreateDatabase } from "@/scripts/lib/recreate-database";
import { randomPhone } from "../support/factories";
import {
  SIMULATOR_TABLES,
  insertSimulatorRows,
  simulatorRowsIn,
  simulatorTablesOutside,
  type RunSql,
} from "../support/simulator-books";

// A database of the previous release must upgrade in place: the committed migrations minus the
// newest make that database, the domain fills it, then the newest applies on top and what was
// there is still there, read back through the domain.

const MIGRATIONS = path.join(process.cwd(), "drizzle");
interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as Journal &
  Record<string, unknown>;

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `/gateway_upgrade_${process.pid}`;
// A second database, for the production cases (the first is a sandbox's).
const productionUrl = new URL(url);
productionUrl.pathname = `/gateway_upgrade_production_${process.pid}`;
let client: postgres.Sql;
let db: Db;
let previousRelease: string;

// The last release that kept the simulators' books beside the gateway's (0014 moved them): the
// simulators' tests upgrade from it, through every later migration.
const BEFORE_SIMULATORS_APART = "0013_console_audit_log_append_only";
let beforeSimulatorsApart: string;

/** drizzle/ as a release shipped it: the journal and its SQL files, its first `count` entries. */
function releaseMigrations(count: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), "gateway-previous-migrations-"));
  const entries = journal.entries.slice(0, count);
  cpSync(path.join(MIGRATIONS, "meta"), path.join(folder, "meta"), { recursive: true });
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }, null, 2));
  for (const entry of entries) cpSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

beforeAll(async () => {
  await recreateDatabase(url.toString());
  client = postgres(url.toString(), { max: 2, onnotice: () => {} });
  db = drizzle({ client, schema }) as unknown as Db;
  previousRelease = releaseMigrations(journal.entries.length - 1);
  beforeSimulatorsApart = releaseMigrations(
    journal.entries.findIndex((entry) => entry.tag === BEFORE_SIMULATORS_APART) + 1,
  );
});

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await recreateDatabase(url.toString(), { dropOnly: true });
  await recreateDatabase(productionUrl.toString(), { dropOnly: true });
  for (const folder of [previousRelease, beforeSimulatorsApart])
    if (folder) rmSync(folder, { recursive: true, force: true });
});

async function serviceContext(code: string): Promise<ServiceContext> {
  const [service] = await db.select().from(schema.services).where(eq(schema.services.code, code));
  if (!service) throw new Error(`no service ${code}`);
  return {
    id: service.id,
    code: service.code,
    name: service.name,
    tenantId: service.tenantId,
    countries: service.countries,
    allowedOrigins: service.allowedOrigins,
    redirectUrl: service.redirectUrl,
    webhookUrl: service.webhookUrl,
    clockOffsetSeconds: service.clockOffsetSeconds,
    cardProviderPublishableKey: service.cardProviderPublishableKey,
  };
}

describe("migration upgrade", () => {
  it("upgrades a previous release's database in place, keeping its merchants, customers and payments", async () => {
    expect(journal.entries.length).toBeGreaterThan(1);
    await migrate(drizzle({ client, schema }), { migrationsFolder: previousRelease });

    // Filled through the domain, as the previous release would have.
    const merchant = await onboardMerchant(db, {
      name: `Upgrade Shop ${process.pid}`,
      countries: ["DZA"],
      redirectUrl: "https://shop.example/return",
      origins: ["https://shop.example"],
    });
    const service = await serviceContext(merchant.service);
    const phone = randomPhone();
    const customer = await createCustomer(db, {
      serviceId: service.id,
      input: { name: "Upgrade Customer", phone, isActive: true },
    });
    const intent = (amount: number) =>
      createPaymentIntent(db, {
        creator: serviceCreator(service, serviceClock(service)),
        query: { countryCode: "DZA" },
        input: {
          actionId: `upgrade-${amount}`,
          amount,
          actionCurrencyCode: "DZD",
          actionCountryCode: "DZA",
          userId: phone,
          captureMethod: "DIRECT",
        },
        cause: API_CAUSE,
      });
    const open = await intent(120);
    const paid = await intent(250);
    const user: UserPrincipal = { mode: "user", service, customerId: customer.id, tokenId: "upgrade-test" };
    const proceeded = await proceedPayment(db, {
      principal: user,
      paymentId: paid.payment.id,
      cause: API_CAUSE,
      input: { paymentMethodCode: "WALLET_V2" },
      headers: { "x-platform": "API" },
    });
    expect(proceeded.statusCode).toBe(2);
    const run: RunSql = async (text) => sqlRows<Record<string, unknown>>(await db.execute(sql.raw(text)));
    await run(`insert into database_seal (environment, secret_fingerprint) values ('sandbox', 'upgrade-test')`);
    const tables = ["services", "customers", "payments", "notifications"];
    const before = await rowCounts(tables);
    const paymentsBefore = await db.select().from(schema.payments).orderBy(asc(schema.payments.id));

    // The new release starts: every committed migration, so only the newest runs.
    await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS });

    const applied = await client<{ n: string }[]>`select count(*)::text as n from drizzle.__drizzle_migrations`;
    expect(Number(applied[0]!.n)).toBe(journal.entries.length);
    expect(await rowCounts(tables)).toEqual(before);
    expect(await db.select().from(schema.payments).orderBy(asc(schema.payments.id))).toEqual(paymentsBefore);
    const merchantServer: ClientPrincipal = {
      mode: "client",
      service,
      credentialId: "upgrade-test",
      clientId: merchant.clientId,
    };
    expect((await checkPayment(db, { principal: merchantServer, paymentId: open.payment.id })).state).toBe("CREATED");
    expect((await checkPayment(db, { principal: merchantServer, paymentId: paid.payment.id })).state).toBe("SUCCEEDED");
    expect((await searchCustomerByPhone(db, { serviceId: service.id, phone })).id).toBe(customer.id);
  });
});

/** A new production database, migrated by `prepare`, then checked to hold no simulator table nor their schema. */
async function productionDatabaseHasNoSimulatorTable(
  prepare: (run: RunSql, production: postgres.Sql) => Promise<void>,
) {
  await recreateDatabase(productionUrl.toString());
  const production = postgres(productionUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    const run: RunSql = (text) => production.unsafe(text) as Promise<Record<string, unknown>[]>;
    await prepare(run, production);
    expect(await simulatorTablesOutside(run, "nowhere")).toEqual([]);
    expect(await run(`select 1 from information_schema.schemata where schema_name = 'simulators'`)).toEqual([]);
  } finally {
    await production.end({ timeout: 5 });
  }
}

describe("migration upgrade: the simulators' tables", () => {
  it("leaves a production database of the previous release with no simulator table", async () => {
    await productionDatabaseHasNoSimulatorTable(async (run, production) => {
      await migrate(drizzle({ client: production, schema }), { migrationsFolder: beforeSimulatorsApart });
      await run(`insert into database_seal (environment, secret_fingerprint) values ('production', 'upgrade-test')`);
      expect(await simulatorTablesOutside(run, "nowhere")).toHaveLength(SIMULATOR_TABLES.length);
      await migrate(drizzle({ client: production, schema }), { migrationsFolder: MIGRATIONS });
    });
  });

  it("never gives a fresh production database one", async () => {
    await productionDatabaseHasNoSimulatorTable(async (_run, production) => {
      await migrate(drizzle({ client: production, schema }), { migrationsFolder: MIGRATIONS });
    });
  });

  it("moves a sandbox database's simulator books, row for row, to their own schema (PostgreSQL)", async () => {
    await recreateDatabase(productionUrl.toString());
    const sandbox = postgres(productionUrl.toString(), { max: 1, onnotice: () => {} });
    try {
      const run: RunSql = (text) => sandbox.unsafe(text) as Promise<Record<string, unknown>[]>;
      await migrate(drizzle({ client: sandbox, schema }), { migrationsFolder: beforeSimulatorsApart });
      await run(`insert into database_seal (environment, secret_fingerprint) values ('sandbox', 'upgrade-test')`);
      await insertSimulatorRows(run, "public");
      const simulatorBooks = await simulatorRowsIn(run, "public");
      await migrate(drizzle({ client: sandbox, schema }), { migrationsFolder: MIGRATIONS });
      expect(await simulatorRowsIn(run, "simulators")).toEqual(simulatorBooks);
      expect(await simulatorTablesOutside(run, "simulators")).toEqual([]);
      // A sandbox process then applies the simulators' own migrations, which find the tables in place.
      await migrate(drizzle({ client: sandbox, schema }), SIMULATOR_MIGRATIONS);
      expect(await simulatorRowsIn(run, "simulators")).toEqual(simulatorBooks);
    } finally {
      await sandbox.end({ timeout: 5 });
    }
  });

  it("moves a sandbox database's simulator books on PGlite too", { timeout: 300_000 }, async () => {
    const embedded = new PGlite();
    try {
      const run: RunSql = async (text) => (await embedded.query<Record<string, unknown>>(text)).rows;
      const pglite = drizzlePglite({ client: embedded, schema });
      await migratePglite(pglite, { migrationsFolder: beforeSimulatorsApart });
      await insertSimulatorRows(run, "public");
      const simulatorBooks = await simulatorRowsIn(run, "public");
      await migratePglite(pglite, { migrationsFolder: MIGRATIONS });
      expect(await simulatorRowsIn(run, "simulators")).toEqual(simulatorBooks);
      expect(await simulatorTablesOutside(run, "simulators")).toEqual([]);
      await migratePglite(pglite, SIMULATOR_MIGRATIONS);
      expect(await simulatorRowsIn(run, "simulators")).toEqual(simulatorBooks);
    } finally {
      await embedded.close();
    }
  });
});

async function rowCounts(tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = sqlRows<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from "${table}"`)));
    counts[table] = Number(row!.n);
  }
  return counts;
}
