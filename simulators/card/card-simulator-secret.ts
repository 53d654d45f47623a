import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { sqlRows } from "../../lib/db/sql-rows";
import { cardSimulatorSettings } from "./card-tables";

const SECRET = "secret";

/**
 * The secret `npm run card-simulator` derives its keys and signs with, kept in its own books
 * (generated at its first start), so the keys it prints hold across restarts. A database an
 * earlier release ran it on kept it in the gateway's table (public.sandbox_settings, when the
 * simulator's database was still migrated as a gateway's): that one is carried over, so the keys
 * a merchant configured do not change with the upgrade.
 */
export async function cardSimulatorSecret(db: Db): Promise<Buffer> {
  const value = (await earlierSecret(db)) ?? randomBytes(32).toString("base64");
  await db.insert(cardSimulatorSettings).values({ key: SECRET, value }).onConflictDoNothing();
  const [row] = await db
    .select({ value: cardSimulatorSettings.value })
    .from(cardSimulatorSettings)
    .where(eq(cardSimulatorSettings.key, SECRET));
  return Buffer.from(row!.value, "base64");
}

async function earlierSecret(db: Db): Promise<string | undefined> {
  const [table] = sqlRows<{ exists: boolean }>(
    await db.execute(sql`select to_regclass('public.sandbox_settings') is not null as exists`),
  );
  if (!table?.exists) return undefined;
  const [row] = sqlRows<{ value: string }>(
    await db.execute(sql`select value from public.sandbox_settings where key = 'gateway_secret'`),
  );
  return row?.value;
}
