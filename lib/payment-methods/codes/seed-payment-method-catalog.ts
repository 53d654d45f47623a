import type { Db } from "../../db/client";
import { paymentMethodCatalog } from "../../db/schema";
import { getConfig } from "../../config";
import { CATALOG_DEFAULTS } from "./catalog-defaults";

/**
 * Enables WALLET_V2 and CARD_PROVIDER in each of the service's countries, and in the sandbox
 * the country's redirect methods (SATIM in DZA) against their simulators. Runs inside the
 * onboarding transaction; adding a country later seeds only what is missing.
 */
export async function seedPaymentMethodCatalog(
  tx: Db,
  options: { serviceId: string; countries: readonly string[] },
): Promise<void> {
  const rows = options.countries.flatMap((country) =>
    CATALOG_DEFAULTS.filter(
      (method) =>
        (!method.countries || method.countries.includes(country)) && (!method.sandboxOnly || getConfig().isSandbox),
    ).map((method) => ({
      serviceId: options.serviceId,
      country,
      code: method.code,
      name: method.name,
      displayNames: method.displayNames,
      imagePath: method.imagePath,
      archetype: method.archetype,
      position: method.position,
    })),
  );
  if (rows.length === 0) return;
  await tx.insert(paymentMethodCatalog).values(rows).onConflictDoNothing();
}
