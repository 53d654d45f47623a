import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { decryptWithKey, encryptWithKey, getGatewayKey } from "../../crypto/gateway-key";
import { constantTimeEqual, hmacHex } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { apiCredentials, cardProviderAccounts, services } from "../../db/schema";

/** Which merchant account at the provider a call is made for: the payment's service and country. */
export interface CardAccountRef {
  serviceId: string;
  country: string;
}

export interface CardProviderAccount {
  publishableKey: string;
  secretKey: string;
  webhookSecret: string;
}

export const cardAccountKeysInput = z.object({
  clientId: z.string().min(1),
  country: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 3166 alpha-3 code"),
  publishableKey: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, "must be a Stripe publishable key (pk_test_... or pk_live_...)"),
  secretKey: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, "must be a Stripe secret or restricted key (sk_/rk_...)"),
  webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9_+/=]+$/, "must be a Stripe webhook signing secret (whsec_...)"),
});

/**
 * Sets the provider keys of one service and country (merchant CLI `card-keys`). The secret key
 * and webhook secret are sealed with the gateway key; the answer names what was set, never a secret.
 */
export async function setCardProviderAccount(db: Db, input: z.infer<typeof cardAccountKeysInput>) {
  const [credential] = await db
    .select({ serviceId: apiCredentials.serviceId })
    .from(apiCredentials)
    .where(eq(apiCredentials.clientId, input.clientId));
  if (!credential) throw new Error(`No credential with client id ${input.clientId}`);
  const key = await getGatewayKey(db);
  const sealed = {
    publishableKey: input.publishableKey,
    secretKeySealed: encryptWithKey(key, input.secretKey),
    webhookSecretSealed: encryptWithKey(key, input.webhookSecret),
    updatedAt: new Date(),
  };
  await db
    .insert(cardProviderAccounts)
    .values({ serviceId: credential.serviceId, country: input.country, ...sealed })
    .onConflictDoUpdate({ target: [cardProviderAccounts.serviceId, cardProviderAccounts.country], set: sealed });
  return {
    clientId: input.clientId,
    country: input.country,
    publishableKey: input.publishableKey,
    secretKey: "set",
    webhookSecret: "set",
  };
}

/** The account's keys in clear, for the adapter only; null when none are configured. */
export async function findCardProviderAccount(db: Db, account: CardAccountRef): Promise<CardProviderAccount | null> {
  const [row] = await db
    .select()
    .from(cardProviderAccounts)
    .where(
      and(eq(cardProviderAccounts.serviceId, account.serviceId), eq(cardProviderAccounts.country, account.country)),
    );
  if (!row) return null;
  const key = await getGatewayKey(db);
  return {
    publishableKey: row.publishableKey,
    secretKey: decryptWithKey(key, row.secretKeySealed),
    webhookSecret: decryptWithKey(key, row.webhookSecretSealed),
  };
}

/**
 * The sandbox's own account of a service: the simulator knows the service's publishable key and
 * derives the secret key and webhook secret from it under the gateway key, so the sandbox needs
 * no keys set and the simulator can check them.
 */
export async function sandboxCardAccount(db: Db, serviceId: string): Promise<CardProviderAccount | null> {
  if (!/^[0-9a-f-]{36}$/i.test(serviceId)) return null;
  const [service] = await db
    .select({ publishableKey: services.cardProviderPublishableKey })
    .from(services)
    .where(eq(services.id, serviceId));
  if (!service) return null;
  return sandboxAccountOf(await getGatewayKey(db), service.publishableKey);
}

export function sandboxAccountOf(gatewayKey: Buffer, publishableKey: string): CardProviderAccount {
  const named = Buffer.from(publishableKey, "utf8").toString("hex");
  return {
    publishableKey,
    // The simulator reads the account back from the key and checks its MAC (publishableKeyOfSandboxSecret).
    secretKey: `sk_test_${named}_${hmacHex(gatewayKey, "sandbox-card-secret-key", publishableKey).slice(0, 40)}`,
    webhookSecret: `whsec_${hmacHex(gatewayKey, "sandbox-card-webhook-secret", publishableKey).slice(0, 40)}`,
  };
}

/** The publishable key a sandbox secret key was derived for; null for any other key. */
export function publishableKeyOfSandboxSecret(gatewayKey: Buffer, secretKey: string): string | null {
  const match = /^sk_test_([0-9a-f]+)_([0-9a-f]{40})$/.exec(secretKey);
  if (!match) return null;
  const publishableKey = Buffer.from(match[1]!, "hex").toString("utf8");
  return constantTimeEqual(sandboxAccountOf(gatewayKey, publishableKey).secretKey, secretKey) ? publishableKey : null;
}

/**
 * Every account an inbound event may have been signed for, when the event names no payment of
 * this gateway (so no account): the keys set with the CLI, and in the sandbox each service's
 * derived account. Checking them all keeps "genuine but not ours" (200) apart from "forged"
 * (401) without telling a forger which payment ids exist.
 */
export async function everyCardProviderAccount(db: Db, options: { sandbox: boolean }): Promise<CardProviderAccount[]> {
  const key = await getGatewayKey(db);
  const rows = await db.select().from(cardProviderAccounts);
  const configured = rows.map((row) => ({
    publishableKey: row.publishableKey,
    secretKey: decryptWithKey(key, row.secretKeySealed),
    webhookSecret: decryptWithKey(key, row.webhookSecretSealed),
  }));
  if (!options.sandbox) return configured;
  const sandbox = await db.select({ publishableKey: services.cardProviderPublishableKey }).from(services);
  return [...configured, ...sandbox.map((service) => sandboxAccountOf(key, service.publishableKey))];
}
