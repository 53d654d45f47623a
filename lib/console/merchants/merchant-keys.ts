import { eq } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { apiCredentials, services } from "../../db/schema";
import { rotateClientSecret } from "../../merchants/rotate-client-secret";
import { updateMerchant } from "../../merchants/update-merchant";

export interface MerchantKeys {
  clientId: string;
  publishableKey: string;
  webhookUrl: string | null;
  redirectUrl: string | null;
  allowedOrigins: string[];
  termsUrl: string | null;
  name: string;
}

/** What the Developers and Settings pages show; never a secret. */
export async function getMerchantKeys(db: Db, serviceId: string): Promise<MerchantKeys> {
  const [row] = await db
    .select({
      clientId: apiCredentials.clientId,
      publishableKey: apiCredentials.publishableKey,
      webhookUrl: services.webhookUrl,
      redirectUrl: services.redirectUrl,
      allowedOrigins: services.allowedOrigins,
      termsUrl: services.termsUrl,
      name: services.name,
    })
    .from(services)
    .innerJoin(apiCredentials, eq(apiCredentials.serviceId, services.id))
    .where(eq(services.id, serviceId))
    .limit(1);
  if (!row) throw new Error(`service ${serviceId} has no credential`);
  return row;
}

/** "Roll client secret": the old one stops at once; the new one is returned this once. */
export async function rollClientSecret(db: Db, options: { actor: AuditActor; serviceId: string }): Promise<string> {
  const { clientId } = await getMerchantKeys(db, options.serviceId);
  return db.transaction(async (tx) => {
    const { clientSecret } = await rotateClientSecret(tx, clientId);
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "client_secret_rolled",
      target: clientId,
    });
    return clientSecret;
  });
}

/** "Roll webhook secret": deliveries are signed with the new one from now on. */
export async function rollWebhookSecret(db: Db, options: { actor: AuditActor; serviceId: string }): Promise<string> {
  const { clientId } = await getMerchantKeys(db, options.serviceId);
  return db.transaction(async (tx) => {
    const updated = await updateMerchant(tx, { clientId, rotateWebhookSecret: true });
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "webhook_secret_rolled",
      target: clientId,
    });
    return updated.webhookSecret!;
  });
}
