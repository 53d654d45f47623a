import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { customers } from "../db/schema";
import { ApiError } from "../errors/api-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One answer for an unknown id, a malformed id and another merchant's customer, so ids of
 * other services cannot be probed.
 */
export const customerNotFound = () => new ApiError("not_found", "No customer with this id.");

export type CustomerRow = typeof customers.$inferSelect;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The caller's customer by id; another service's customer does not exist for the caller. */
export async function getCustomerOrThrow(db: Db, options: { id: string; serviceId: string }): Promise<CustomerRow> {
  // PostgreSQL refuses a malformed uuid with an error; it cannot name a customer anyway.
  if (!isUuid(options.id)) throw customerNotFound();
  const [customer] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.id, options.id), eq(customers.serviceId, options.serviceId)))
    .limit(1);
  if (!customer) throw customerNotFound();
  return customer;
}
