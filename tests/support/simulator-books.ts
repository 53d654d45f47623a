import { randomUUID } from "node:crypto";

/** Runs one SQL text and answers its rows: postgres.js and PGlite alike. */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>;

/** The simulators' tables, which the gateway's tables held beside its own until migration 0014. */
export const SIMULATOR_TABLES = [
  "card_provider_payment_methods",
  "card_provider_payment_intents",
  "card_provider_refunds",
  "card_provider_events",
  "card_provider_idempotency_keys",
  "wallet_accounts",
  "wallet_holds",
  "wallet_entries",
  "otp_challenges",
  "wallet_operations",
  "wallet_qr_requests",
] as const;

/** A few rows of each simulator's books, as the simulators of the previous release wrote them. */
export async function insertSimulatorRows(run: RunSql, schema: string) {
  const account = randomUUID();
  const payment = randomUUID();
  await run(`insert into ${schema}.wallet_accounts (id, service_id, customer_id, currency, balance_minor)
             values ('${account}', '${randomUUID()}', '${randomUUID()}', 'DZD', 500000)`);
  await run(`insert into ${schema}.wallet_entries (account_id, kind, balance_delta_minor)
             values ('${account}', 'opening', 500000)`);
  await run(`insert into ${schema}.wallet_holds (account_id, payment_id, amount_minor)
             values ('${account}', '${payment}', 1000)`);
  await run(`insert into ${schema}.card_provider_payment_methods
               (id, account_key, brand, last4, exp_month, exp_year, fingerprint)
             values ('pm_upgrade', 'pk_test_upgrade', 'visa', '4242', 12, 2030, 'fp')`);
  await run(`insert into ${schema}.card_provider_payment_intents
               (id, account_key, idempotency_key, amount_minor, currency, capture_method, status, payment_method_id)
             values ('pi_upgrade', 'pk_test_upgrade', 'upgrade-key', 1500, 'dzd', 'manual', 'requires_capture',
                     'pm_upgrade')`);
}

/** Every row of every simulator table in `schema`, as JSON text, by table. */
export async function simulatorRowsIn(run: RunSql, schema: string): Promise<Record<string, string[]>> {
  const books: Record<string, string[]> = {};
  for (const table of SIMULATOR_TABLES) {
    const rows = await run(`select row_to_json(t)::text as row from ${schema}.${table} t order by 1`);
    books[table] = rows.map((row) => String(row.row));
  }
  return books;
}

/** The simulator tables found in any schema but `schema`, as schema.table. */
export async function simulatorTablesOutside(run: RunSql, schema: string): Promise<string[]> {
  const names = SIMULATOR_TABLES.map((table) => `'${table}'`).join(", ");
  const rows = await run(`select table_schema || '.' || table_name as name from information_schema.tables
                          where table_name in (${names}) and table_schema <> '${schema}' order by 1`);
  return rows.map((row) => String(row.name));
}
