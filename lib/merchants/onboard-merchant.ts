import { eq } from "drizzle-orm";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { apiCredentials, services, tenants } from "../db/schema";
import { encryptWithKey, getGatewayKey } from "../crypto/gateway-key";
import { hashSecret } from "../crypto/secrets";
import { assertWebhookUrlAllowed, productionWebhookPolicy } from "../notifications/webhook-policy";
import { seedPaymentMethodCatalog } from "../payment-methods/codes/seed-payment-method-catalog";
import { normalizeAllowListEntry } from "../urls/allowed-origins";
import {
  newClientId,
  newClientSecret,
  newPublishableKey,
  newSandboxCardProviderKey,
  newWebhookSecret,
  slugify,
  withRandomSuffix,
} from "./codes";
import { onboardMerchantInput, type OnboardedMerchant, type OnboardMerchantInput } from "./onboard-merchant.schema";

/** Creates tenant, service and credentials in one transaction; returns the secrets once. */
export async function onboardMerchant(db: Db, rawInput: OnboardMerchantInput): Promise<OnboardedMerchant> {
  const input = onboardMerchantInput.parse(rawInput);
  const config = getConfig();
  if (!config.isSandbox) await assertProductionReady(input);
  const gatewayKey = await getGatewayKey(db);
  const clientSecret = newClientSecret();
  const publishableKey = newPublishableKey();
  const webhookSecret = newWebhookSecret();
  const cardProviderPublishableKey = input.cardProviderPublishableKey ?? newSandboxCardProviderKey();

  return db.transaction(async (tx) => {
    const tenantCode = await freeCode(tx, "tenant", slugify(input.name));
    const serviceCode = await freeCode(tx, "service", tenantCode);
    const [tenant] = await tx.insert(tenants).values({ code: tenantCode, name: input.name }).returning();
    const [service] = await tx
      .insert(services)
      .values({
        tenantId: tenant!.id,
        code: serviceCode,
        name: input.name,
        countries: input.countries,
        redirectUrl: input.redirectUrl ?? null,
        webhookUrl: input.webhookUrl ?? null,
        webhookSecretEncrypted: encryptWithKey(gatewayKey, webhookSecret),
        allowedOrigins: input.origins.map(normalizeAllowListEntry),
        cardProviderPublishableKey,
      })
      .returning();
    await seedPaymentMethodCatalog(tx, { serviceId: service!.id, countries: input.countries });
    const clientId = newClientId(tenantCode, serviceCode);
    await tx.insert(apiCredentials).values({
      serviceId: service!.id,
      clientId,
      clientSecretHash: hashSecret(clientSecret),
      publishableKey,
    });
    return {
      name: input.name,
      tenant: tenantCode,
      service: serviceCode,
      clientId,
      clientSecret,
      publishableKey,
      webhookSecret,
      cardProviderPublishableKey,
    };
  });
}

export async function assertProductionReady(input: { webhookUrl?: string; cardProviderPublishableKey?: string }) {
  if (input.webhookUrl && !input.webhookUrl.startsWith("https://")) {
    throw new Error("In production the webhook URL must use https.");
  }
  // No SSRF: the host must resolve to public addresses only (delivery checks again per connection).
  if (input.webhookUrl) {
    await assertWebhookUrlAllowed(input.webhookUrl, productionWebhookPolicy).catch((refused: Error) => {
      throw new Error(`In production the webhook URL must reach a public address (${refused.message}).`);
    });
  }
  if (!input.cardProviderPublishableKey) {
    throw new Error("In production give the card provider's publishable key (--card-provider-key).");
  }
}

async function freeCode(tx: Db, kind: "tenant" | "service", wanted: string): Promise<string> {
  const table = kind === "tenant" ? tenants : services;
  let candidate = wanted;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const taken = await tx.select({ id: table.id }).from(table).where(eq(table.code, candidate)).limit(1);
    if (taken.length === 0) return candidate;
    candidate = withRandomSuffix(wanted);
  }
  throw new Error(`Could not find a free ${kind} code for ${wanted}`);
}
