import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { services } from "../db/schema";
import { LOCAL_DEVELOPMENT_ORIGINS } from "../urls/allowed-origins";
import { DEMO_MERCHANT_NAME, demoMerchantServiceId, rememberDemoMerchant } from "./demo-merchant";
import { DEMO_WEBHOOK_PATH } from "./demo-webhook-receiver";
import { onboardMerchant } from "./onboard-merchant";
import type { OnboardedMerchant } from "./onboard-merchant.schema";

/**
 * Sandbox first start: a merchant to try the API with. Null when it already exists. It allows
 * any port of http://localhost and http://127.0.0.1 (a developer's local shop as returnUrl or
 * browser origin), and its webhooks go to the gateway's own demo receiver (GET it to see them).
 */
export async function ensureDemoMerchant(db: Db, publicBaseUrl: string): Promise<OnboardedMerchant | null> {
  if (await demoMerchantServiceId(db)) return null;
  const created = await onboardMerchant(db, {
    name: DEMO_MERCHANT_NAME,
    countries: ["DZA", "MAR", "TUN"],
    redirectUrl: `${publicBaseUrl}/demo/return`,
    origins: [publicBaseUrl, ...LOCAL_DEVELOPMENT_ORIGINS],
    webhookUrl: `${publicBaseUrl}${DEMO_WEBHOOK_PATH}`,
  });
  const [service] = await db.select({ id: services.id }).from(services).where(eq(services.code, created.service));
  await rememberDemoMerchant(db, service!.id);
  return created;
}
