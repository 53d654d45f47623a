import { and, asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../auth/principal";
import type { Db } from "../db/client";
import { preparedOn } from "../db/prepared";
import { paymentMethodCatalog } from "../db/schema";
import { alpha3Of } from "../geo/countries";
import { ApiError } from "../errors/api-error";
import { pageLocaleOf } from "../i18n/locales";
import { toPaymentMethodItem, type PaymentMethodItem } from "./payment-method-views";

// Built once (preparedOn): the payment-method lists read it on every call.
const catalogQuery = (db: Db) =>
  preparedOn(db, "payment_method_catalog_enabled", (db) =>
    db
      .select()
      .from(paymentMethodCatalog)
      .where(
        and(
          eq(paymentMethodCatalog.serviceId, sql.placeholder("serviceId")),
          eq(paymentMethodCatalog.country, sql.placeholder("country")),
          eq(paymentMethodCatalog.enabled, true),
        ),
      )
      .orderBy(asc(paymentMethodCatalog.position), asc(paymentMethodCatalog.code))
      .prepare("payment_method_catalog_enabled"),
  );

/** The enabled catalog rows of a service in one country (alpha-3), in display order. */
export function catalogRows(db: Db, options: { serviceId: string; country: string }) {
  return catalogQuery(db).execute({ serviceId: options.serviceId, country: options.country });
}

/**
 * Interface "Payment methods" 1: what the service offers in a country named by alpha-2,
 * without saved cards. A country the service does not serve has no methods: an empty list.
 */
export async function listAvailablePaymentMethods(
  db: Db,
  options: { service: ServiceContext; countryCode: string; xLocale?: string },
): Promise<PaymentMethodItem[]> {
  const country = alpha3Of(options.countryCode);
  if (!country)
    throw new ApiError("validation_error", "The request is invalid.", [
      { path: "query.countryCode", message: "is not an ISO 3166-1 alpha-2 code" },
    ]);
  const language = pageLocaleOf(options.xLocale) ?? "en";
  const rows = await catalogRows(db, { serviceId: options.service.id, country });
  return rows.map((row) => toPaymentMethodItem(row, language));
}
