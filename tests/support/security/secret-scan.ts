import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { FORBIDDEN_CARD_DATA, TEST_CARDS, TEST_CVC } from "../cards";

/** A secret to look for, with a name for the report, and the part that alone would be a leak. */
export interface Secret {
  kind: string;
  value: string;
}

/** What a payment client secret gives away on its own: the HMAC after `_secret_` (its payment id is no secret). */
export const paymentSecretPart = (clientSecret: string) =>
  clientSecret.slice(clientSecret.indexOf("_secret_") + "_secret_".length);

// The sandbox OTP and the test CVC standing alone as text: not inside a longer digit run (a
// phone), an identifier, base64 or a timestamp's fraction, and not a JSON number (`:123456`
// is an amount of 1,234.56 in minor units; a code travels as a string).
const OTP_AS_VALUE = /(?<![0-9A-Za-z.+/_:-])(?<!": )123456(?![0-9A-Za-z+/_=-])/;
const CVC_AS_VALUE = new RegExp(`(?<![0-9A-Za-z.+/_:-])${TEST_CVC}(?![0-9A-Za-z+/_=-])`);
const CARD_NUMBERS = [...Object.values(TEST_CARDS), ...FORBIDDEN_CARD_DATA.filter((item) => item.length > 4)];

/** Every finding of `secrets`, card data and the OTP in one blob of text (a table row, a log line). */
export function findSecrets(text: string, secrets: Secret[], options: { cvcAsValue?: boolean } = {}): string[] {
  const found: string[] = [];
  for (const secret of secrets)
    if (text.includes(secret.value)) found.push(`${secret.kind} (${secret.value.slice(0, 6)}...)`);
  for (const number of CARD_NUMBERS) if (text.includes(number)) found.push(`card number ending ${number.slice(-4)}`);
  if (OTP_AS_VALUE.test(text)) found.push(`the OTP 123456 near "${around(text, OTP_AS_VALUE)}"`);
  if (options.cvcAsValue !== false && CVC_AS_VALUE.test(text)) {
    found.push(`the CVC ${TEST_CVC} near "${around(text, CVC_AS_VALUE)}"`);
  }
  return found;
}

/** The text around the first match of `pattern`: 40 characters before it, 10 from its start. */
function around(text: string, pattern: RegExp): string {
  const at = text.search(pattern);
  return text.slice(Math.max(0, at - 40), at + 10);
}

type Rows = Record<string, unknown>[];
const rowsOf = (result: unknown): Rows => (Array.isArray(result) ? result : (result as { rows: Rows }).rows);

// A gateway table by its bare name, a simulator's as simulators.<name>.
const tableNamed = (name: string) =>
  sql.join(
    name.split(".").map((part) => sql.identifier(part)),
    sql.raw("."),
  );

/**
 * Every row of every table in the public and simulators schemas as JSON text, so a new table or column is
 * covered too.
 */
export async function dumpDatabase(): Promise<{ table: string; row: string }[]> {
  const db = await getDb();
  const tables = rowsOf(
    await db.execute(
      sql`select table_schema, table_name from information_schema.tables
          where table_schema in ('public', 'simulators') and table_type = 'BASE TABLE'
            and table_name <> '__drizzle_migrations'`,
    ),
  ).map((row) =>
    row.table_schema === "public" ? String(row.table_name) : `${String(row.table_schema)}.${String(row.table_name)}`,
  );
  const dump: { table: string; row: string }[] = [];
  for (const table of tables) {
    const rows = rowsOf(await db.execute(sql`select row_to_json(t)::text as row from ${tableNamed(table)} t`));
    for (const { row } of rows) dump.push({ table, row: String(row) });
  }
  return dump;
}
