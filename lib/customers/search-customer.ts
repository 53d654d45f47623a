import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { customers } from "../db/schema";
import { ApiError } from "../errors/api-error";
import type { CustomerRow } from "./get-customer";

/** The caller's customer with this E.164 phone; phones are unique per service. */
export async function searchCustomerByPhone(
  db: Db,
  options: { phone: string; serviceId: string },
): Promise<CustomerRow> {
  const [customer] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.serviceId, options.serviceId), eq(customers.phone, options.phone)))
    .limit(1);
  if (!customer) throw new ApiError("not_found", "No customer with this phone.");
  return customer;
}
