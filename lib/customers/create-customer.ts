import type { Db } from "../db/client";
import { customers } from "../db/schema";
import { ApiError } from "../errors/api-error";
import type { CreateCustomerBody } from "./customer.schema";

/** One customer per phone per service; a second create of the phone is 409 customer_exists. */
export async function createCustomer(db: Db, options: { serviceId: string; input: CreateCustomerBody }) {
  const { input } = options;
  const [created] = await db
    .insert(customers)
    .values({
      serviceId: options.serviceId,
      name: input.name,
      phone: input.phone,
      email: input.email ?? null,
      isActive: input.isActive,
    })
    .onConflictDoNothing({ target: [customers.serviceId, customers.phone] })
    .returning();
  if (!created) throw new ApiError("customer_exists", "A customer with this phone already exists.");
  return created;
}
