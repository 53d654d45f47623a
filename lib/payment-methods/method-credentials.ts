import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiCredentials, paymentMethodCatalog, services } from "../db/schema";
import { recordAuditEntry, type AuditActor } from "../audit-log/record-audit-entry";
import { ApiError } from "../errors/api-error";
import { CATALOG_DEFAULTS } from "./codes/catalog-defaults";
import type { PaymentMethodCode } from "./codes/payment-method-codes";
import type { ConnectionTest } from "./contract/redirect-provider";
import { PAYMENT_METHODS } from "./registry/payment-method-registry";

/**
 * Sets a redirect method's credentials for a merchant (contract 15, "Enabling"): sealed, never
 * shown again, audited, and the method enabled in the merchant's countries it serves. This is
 * the one way production enables such a method; then a harmless call tells whether the
 * credentials work ("Test connection").
 */
export async function setMethodCredentials(
  db: Db,
  options: { clientId: string; code: PaymentMethodCode; settings: Record<string, string | undefined>; actor: AuditActor },
): Promise<{ clientId: string; method: PaymentMethodCode; enabledIn: string[]; connection: ConnectionTest } & Record<string, unknown>> {
  const provider = PAYMENT_METHODS[options.code].redirect;
  if (!provider) throw new ApiError("invalid_state", `${options.code} takes no provider credentials.`);
  const [service] = await db
    .select({ id: services.id, countries: services.countries })
    .from(apiCredentials)
    .innerJoin(services, eq(services.id, apiCredentials.serviceId))
    .where(eq(apiCredentials.clientId, options.clientId));
  if (!service) throw new Error(`No credential with client id ${options.clientId}`);
  const method = CATALOG_DEFAULTS.find((row) => row.code === options.code)!;
  const enabledIn = service.countries.filter((country) => provider.countries.includes(country));
  const shown = await db.transaction(async (tx) => {
    const saved = await provider.saveAccount(tx, { serviceId: service.id, settings: options.settings });
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
    await recordAuditEntry(tx, { actor: options.actor, serviceId: service.id, action: "payment_method_credentials_changed", target: options.code });
    return saved;
  });
  const account = await provider.account(db, service.id);
  const connection = account ? await provider.testConnection(account) : "wrong_credentials";
  return { clientId: options.clientId, method: options.code, ...shown, enabledIn, connection };
}
