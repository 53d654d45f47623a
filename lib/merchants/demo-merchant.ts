import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { sandboxSettings, services } from "../db/schema";

/** The sandbox demo merchant `npm start` creates on a fresh database. */
export const DEMO_MERCHANT_NAME = "Demo Shop";

// The demo merchant is known by its service id, kept beside the sandbox secret: its name is the
// owner's to change in Settings, and a rename must neither cut off its webhooks nor make the
// next start create a second, empty "Demo Shop".
const DEMO_MERCHANT_KEY = "demo_merchant_service_id";

/** The demo merchant's service id, or null on a database that has none yet. */
export async function demoMerchantServiceId(db: Db): Promise<string | null> {
  const [kept] = await db
    .select({ value: sandboxSettings.value })
    .from(sandboxSettings)
    .where(eq(sandboxSettings.key, DEMO_MERCHANT_KEY));
  if (kept) return kept.value;
  // A database from before the id was kept: its demo merchant is the first one of that name.
  const [named] = await db
    .select({ id: services.id })
    .from(services)
    .where(eq(services.name, DEMO_MERCHANT_NAME))
    .orderBy(asc(services.createdAt))
    .limit(1);
  if (!named) return null;
  return rememberDemoMerchant(db, named.id);
}

/** Keeps the demo merchant's id; the first process to keep one wins, and every caller gets it. */
export async function rememberDemoMerchant(db: Db, serviceId: string): Promise<string> {
  await db.insert(sandboxSettings).values({ key: DEMO_MERCHANT_KEY, value: serviceId }).onConflictDoNothing();
  const [kept] = await db
    .select({ value: sandboxSettings.value })
    .from(sandboxSettings)
    .where(eq(sandboxSettings.key, DEMO_MERCHANT_KEY));
  return kept!.value;
}

/** Forgets the demo merchant (tests that need a first start on a used database). */
export async function forgetDemoMerchant(db: Db): Promise<void> {
  await db.delete(sandboxSettings).where(eq(sandboxSettings.key, DEMO_MERCHANT_KEY));
}
