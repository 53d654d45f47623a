import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { services } from "../db/schema";
import { onboardMerchant } from "./onboard-merchant";
import type { OnboardedMerchant } from "./onboard-merchant.schema";

export const DEMO_MERCHANT_NAME = "Demo Shop";

/** Sandbox first start: a merchant to try the API with. Null when it already exists. */
export async function ensureDemoMerchant(db: Db, publicBaseUrl: string): Promise<OnboardedMerchant | null> {
  const existing = await db.select({ id: services.id }).from(services).where(eq(services.name, DEMO_MERCHANT_NAME)).limit(1);
  if (existing.length > 0) return null;
  return onboardMerchant(db, {
    name: DEMO_MERCHANT_NAME,
    countries: ["DZA", "MAR", "TUN"],
    redirectUrl: `${publicBaseUrl}/demo/return`,
    origins: [publicBaseUrl],
  });
}
