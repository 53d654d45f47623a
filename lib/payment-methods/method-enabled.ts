import { sql, type SQL } from "drizzle-orm";
import { paymentMethodCatalog } from "../db/schema";
import { ApiError } from "../errors/api-error";

type ServiceCountries = { countries: string[] };

/*
 * The one rule "this method is offered for the payment's country": the service serves the
 * country and its catalog row there is enabled (contract 1: a country may offer cards only).
 * Its catalog half is an SQL condition, so the proceed reads it in the statement that reads
 * the payment (readProceedPayment); `methodEnabledGiven` applies the whole rule to its answer.
 */

/**
 * True when the service's catalog row for the method in that country is enabled. `country` is
 * an SQL expression of the outer statement, written with its table (drizzle renders a column of
 * a one-table select unqualified, which inside this subquery would name the catalog's own).
 */
export function methodInCatalogSql(options: { serviceId: unknown; country: SQL; code: unknown }): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${paymentMethodCatalog} as catalog
    where catalog.service_id = ${options.serviceId}
    and catalog.country = ${options.country} and catalog.code = ${options.code} and catalog.enabled)`;
}

/** The rule, given the catalog's answer read with `methodInCatalogSql`. */
export function methodEnabledGiven(options: {
  service: ServiceCountries;
  country: string;
  inCatalog: boolean;
}): boolean {
  return options.service.countries.includes(options.country) && options.inCatalog;
}

/** Refuses a proceed with invalid_state when the method is not enabled (`methodEnabledGiven`'s answer). */
export function assertMethodEnabled(enabled: boolean, options: { country: string; code: string }): void {
  if (!enabled) throw new ApiError("invalid_state", `${options.code} is not enabled for ${options.country}.`);
}
