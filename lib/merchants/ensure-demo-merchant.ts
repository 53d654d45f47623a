import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { services } from "../db/schema";
import { LOCAL_DEVELOPMENT_ORIGINS } from "../urls/allowed-origins";
import { DEMO_MERCHANT_NAME } from "./demo-merchant";
import { DEMO_WEBHOOK_PATH } from "./demo-webhook-receiver";
import { onboardMerchant } from "./onboard-merchant";
import type { OnboardedMerchant } from "./onboard-merchant.schema";

export { DEMO_MERCHANT_NAME };

/**
 * Sandbox first start: a merchant to try the API with. Null when it already exists. It allows
 * any port of http://localhost and http://127.0.0.1 (a developer's local shop as returnUrl or
 * browser origin), and its webhooks go to the gateway's own demo receiver (GET it to see them).
 */
export async function ensureDemoMerchant(db: Db, publicBaseUrl: string): Promise<OnboardedMerchant | null> {
  const existing = await db.select({ id: services.id }).from(services).where(eq(services.name, DEMO_MERCHANT_NAME)).limit(1);
  if (existing.length > 0) return null;
  return onboardMerchant(db, {
    name: DEMO_MERCHANT_NAME,
    countries: ["DZA", "MAR", "TUN"],
    redirectUrl: `${publicBaseUrl}/demo/return`,
    origins: [publicBaseUrl, ...LOCAL_DEVELOPMENT_ORIGINS],
    webhookUrl: `${publicBaseUrl}${DEMO_WEBHOOK_PATH}`,
  });
}
