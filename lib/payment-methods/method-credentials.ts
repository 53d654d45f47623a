import { and, eq } from "drizzle-orm";
import { ZodError } from "zod";
import type { Db } from "../db/client";
import { apiCredentials, paymentMethodCatalog, redirectProviderAccounts, services } from "../db/schema";
import { recordAuditEntry, type AuditActor } from "../audit-log/record-audit-entry";
import { ApiError } from "../errors/api-error";
import { CATALOG_DEFAULTS } from "./codes/catalog-defaults";
import type { PaymentMethodCode } from "./codes/payment-method-codes";
import type { ConnectionTest, CredentialField, RedirectProvider } from "./contract/redirect-provider";
import { PAYMENT_METHODS } from "./registry/payment-method-registry";

/** Which merchant: the CLI names it by its client id, the console by its service (the member's merchant). */
export type MerchantRef = { clientId: string } | { serviceId: string };

function redirectProviderOf(code: PaymentMethodCode): RedirectProvider {
  const provider = PAYMENT_METHODS[code].redirect;
  if (!provider) throw new ApiError("invalid_state", `${code} takes no provider credentials.`);
  return provider;
}

async function serviceOf(db: Db, merchant: MerchantRef): Promise<{ id: string; countries: string[] }> {
  const [service] =
    "serviceId" in merchant
      ? await db
          .select({ id: services.id, countries: services.countries })
          .from(services)
          .where(eq(services.id, merchant.serviceId))
      : await db
          .select({ id: services.id, countries: services.countries })
          .from(apiCredentials)
          .innerJoin(services, eq(services.id, apiCredentials.serviceId))
          .where(eq(apiCredentials.clientId, merchant.clientId));
  if (!service)
    throw new Error(
      "clientId" in merchant
        ? `No credential with client id ${merchant.clientId}`
        : `No merchant ${merchant.serviceId}`,
    );
  return service;
}

/**
 * The credentials stored for the method (decrypted, for the adapter and this module only) and when they last
 * changed; null when none are.
 */
async function storedAccount(
  db: Db,
  provider: RedirectProvider,
  code: PaymentMethodCode,
  serviceId: string,
): Promise<{ account: Record<string, string>; changedAt: Date } | null> {
  const [row] = await db
    .select({ changedAt: redirectProviderAccounts.updatedAt })
    .from(redirectProviderAccounts)
    .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, code)));
  if (!row) return null;
  const account = await provider.account(db, serviceId);
  return account ? { account: { ...account }, changedAt: row.changedAt } : null;
}

/**
 * Sets a redirect method's credentials for a merchant (contract 15, "Enabling"): sealed, never
 * shown again, audited, and the method enabled in the merchant's countries it serves. This is
 * the one way production enables such a method (the CLI and the console's Settings both call it);
 * then a harmless call tells whether the credentials work ("Test connection"). A secret field left
 * empty keeps the stored secret (the console never shows it back); with none stored, the
 * provider's own rules refuse it, as they refuse any field they would not take (validation_error
 * naming the field).
 */
export async function setMethodCredentials(
  db: Db,
  options: MerchantRef & { code: PaymentMethodCode; settings: Record<string, string | undefined>; actor: AuditActor },
): Promise<
  { clientId?: string; method: PaymentMethodCode; enabledIn: string[]; connection: ConnectionTest } & Record<
    string,
    unknown
  >
> {
  const provider = redirectProviderOf(options.code);
  const service = await serviceOf(db, options);
  const stored = await storedAccount(db, provider, options.code, service.id);
  const settings: Record<string, string | undefined> = { ...options.settings };
  for (const field of provider.credentialFields) {
    if (field.secret && !settings[field.name] && stored?.account[field.name])
      settings[field.name] = stored.account[field.name];
  }
  const method = CATALOG_DEFAULTS.find((row) => row.code === options.code)!;
  const enabledIn = service.countries.filter((country) => provider.countries.includes(country));
  const shown = await db.transaction(async (tx) => {
    const saved = await saveOrRefuse(provider, options.code, () =>
      provider.saveAccount(tx, { serviceId: service.id, settings }),
    );
    if (enabledIn.length > 0) {
      await tx
        .insert(paymentMethodCatalog)
        .values(
          enabledIn.map((country) => ({
            serviceId: service.id,
            country,
            code: method.code,
            name: method.name,
            displayNames: method.displayNames,
            imagePath: method.imagePath,
            archetype: method.archetype,
            position: method.position,
          })),
        )
        .onConflictDoNothing();
    }
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: service.id,
      action: "payment_method_credentials_changed",
      target: options.code,
    });
    return saved;
  });
  const account = await provider.account(db, service.id);
  const connection = account ? await provider.testConnection(account) : "wrong_credentials";
  const merchant = "clientId" in options ? { clientId: options.clientId } : {};
  return { ...merchant, method: options.code, ...shown, enabledIn, connection };
}

/** The provider's refusal of a field as the API's validation_error naming it (nothing is stored). */
async function saveOrRefuse<T>(
  provider: RedirectProvider,
  code: PaymentMethodCode,
  save: () => Promise<T>,
): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    const details = error.issues.map((issue) => ({
      path: String(issue.path[0] ?? provider.credentialFields[0]?.name ?? "settings"),
      message: issue.message,
    }));
    throw new ApiError(
      "validation_error",
      `${code} credentials refused: ${details.map((detail) => `${detail.path} ${detail.message}`).join("; ")}`,
      details,
    );
  }
}

/** What the console's Settings shows of one method's credentials: never a secret, only whether it is set. */
export interface MethodCredentialsView {
  code: PaymentMethodCode;
  fields: readonly (CredentialField & { value: string | null; set: boolean })[];
  /** When the stored credentials last changed; null when the merchant set none. */
  changedAt: Date | null;
  /** The merchant's countries the method serves, and those where it is enabled now. */
  countries: string[];
  enabledIn: string[];
}

/**
 * Every redirect method of the registry that serves one of the merchant's countries, with its
 * declared credential fields: the non-secret values as stored, each secret only as set or not.
 */
export async function methodCredentialsOverview(db: Db, serviceId: string): Promise<MethodCredentialsView[]> {
  const service = await serviceOf(db, { serviceId });
  const catalog = await db
    .select({ code: paymentMethodCatalog.code, country: paymentMethodCatalog.country })
    .from(paymentMethodCatalog)
    .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.enabled, true)));
  const views: MethodCredentialsView[] = [];
  for (const [code, module] of Object.entries(PAYMENT_METHODS) as [
    PaymentMethodCode,
    (typeof PAYMENT_METHODS)[PaymentMethodCode],
  ][]) {
    const provider = module.redirect;
    if (!provider) continue;
    const countries = service.countries.filter((country) => provider.countries.includes(country));
    if (countries.length === 0) continue;
    const stored = await storedAccount(db, provider, code, serviceId);
    views.push({
      code,
      fields: provider.credentialFields.map((field) => {
        const value = stored?.account[field.name] ?? null;
        return { ...field, value: field.secret ? null : value, set: Boolean(value) };
      }),
      changedAt: stored?.changedAt ?? null,
      countries,
      enabledIn: countries.filter((country) => catalog.some((row) => row.code === code && row.country === country)),
    });
  }
  return views;
}

/**
 * "Test connection": the provider's harmless call (its adapter's testConnection) with the
 * merchant's credentials as the payments would use them (in the sandbox without stored ones,
 * the simulator's merchant). "not_configured": none to test.
 */
export async function testMethodConnection(
  db: Db,
  options: { serviceId: string; code: PaymentMethodCode },
): Promise<ConnectionTest | "not_configured"> {
  const provider = redirectProviderOf(options.code);
  const account = await provider.account(db, options.serviceId);
  return account ? provider.testConnection(account) : "not_configured";
}
