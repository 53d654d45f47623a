import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import { catalogRows } from "./list-available-payment-methods";

/**
 * The one rule "this method is offered for the payment's country": the service serves the
 * country and its catalog row there is enabled (contract 1: a country may offer cards only).
 */
export async function isMethodEnabled(db: Db, options: { service: { id: string; countries: string[] }; country: string; code: string }): Promise<boolean> {
  if (!options.service.countries.includes(options.country)) return false;
  const rows = await catalogRows(db, { serviceId: options.service.id, country: options.country });
  return rows.some((row) => row.code === options.code);
}

/** `isMethodEnabled`, refusing a proceed with invalid_state otherwise. */
export async function assertMethodEnabled(db: Db, options: { service: { id: string; countries: string[] }; country: string; code: string }): Promise<void> {
  if (!(await isMethodEnabled(db, options))) throw new ApiError("invalid_state", `${options.code} is not enabled for ${options.country}.`);
}
