import { eq } from "drizzle-orm";
import { getConfig } from "../config";
import { encryptWithKey, getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { apiCredentials, services } from "../db/schema";
import { seedPaymentMethodCatalog } from "../payment-methods/codes/seed-payment-method-catalog";
import { normalizeAllowListEntry } from "../urls/allowed-origins";
import { newWebhookSecret } from "./codes";
import { merchantTimeZone } from "./merchant-time-zone";
import { assertProductionReady } from "./onboard-merchant";
import { updateMerchantInput, type UpdatedMerchant, type UpdateMerchantInput } from "./update-merchant.schema";

/**
 * Changes an existing service: name, countries (new ones get their payment methods), redirect
 * URL, webhook URL, allow-listed origins, the console's time zone, terms of payment URL. A new
 * webhook secret is made when asked, or when the service gets its first webhook URL (nothing
 * could have used the old one, and it was shown only once at onboarding); the secret is
 * returned only then.
 */
export async function updateMerchant(db: Db, rawInput: UpdateMerchantInput): Promise<UpdatedMerchant> {
  const input = updateMerchantInput.parse(rawInput);
  if (!getConfig().isSandbox && input.webhookUrl) {
    await assertProductionReady({ webhookUrl: input.webhookUrl, cardProviderPublishableKey: "kept" });
  }
  const gatewayKey = await getGatewayKey(db);
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ service: services })
      .from(apiCredentials)
      .innerJoin(services, eq(services.id, apiCredentials.serviceId))
      .where(eq(apiCredentials.clientId, input.clientId))
      .for("update", { of: services });
    if (!found) throw new Error(`No merchant with client id ${input.clientId} (see npm run merchant -- list).`);
    const before = found.service;
    const firstWebhookUrl = !before.webhookUrl && Boolean(input.webhookUrl);
    const webhookSecret = input.rotateWebhookSecret || firstWebhookUrl ? newWebhookSecret() : undefined;
    const [after] = await tx
      .update(services)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.countries !== undefined ? { countries: input.countries } : {}),
        ...(input.redirectUrl !== undefined ? { redirectUrl: input.redirectUrl } : {}),
        ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
        ...(input.origins !== undefined ? { allowedOrigins: input.origins.map(normalizeAllowListEntry) } : {}),
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
        ...(input.termsUrl !== undefined ? { termsUrl: input.termsUrl } : {}),
        ...(webhookSecret ? { webhookSecretEncrypted: encryptWithKey(gatewayKey, webhookSecret) } : {}),
      })
      .where(eq(services.id, before.id))
      .returning();
    if (input.countries) await seedPaymentMethodCatalog(tx, { serviceId: before.id, countries: input.countries });
    return {
      name: after!.name,
      service: after!.code,
      clientId: input.clientId,
      countries: after!.countries,
      redirectUrl: after!.redirectUrl,
      webhookUrl: after!.webhookUrl,
      origins: after!.allowedOrigins,
      timeZone: merchantTimeZone(after!),
      termsUrl: after!.termsUrl,
      ...(webhookSecret ? { webhookSecret } : {}),
    };
  });
}
