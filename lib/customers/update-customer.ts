import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { customers, customerTokens } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { customerNotFound, getCustomerOrThrow, isUuid, type CustomerRow } from "./get-customer";
import type { UpdateCustomerBody } from "./customer.schema";
import { revokeTokensWhere } from "./revoke-tokens";

/**
 * Applies the given fields in one conditional UPDATE scoped to the caller's service.
 * Deactivating also revokes the customer's access tokens, so a later reactivation does not
 * bring old sessions back.
 */
export async function updateCustomer(
  db: Db,
  options: { id: string; serviceId: string; changes: UpdateCustomerBody },
): Promise<CustomerRow> {
  const { id, serviceId, changes } = options;
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return getCustomerOrThrow(db, { id, serviceId });
  if (!isUuid(id)) throw customerNotFound();

  const apply = async (tx: Db) => {
    const [updated] = await tx
      .update(customers)
      .set({ ...set, updatedAt: sql`now()` })
      .where(and(eq(customers.id, id), eq(customers.serviceId, serviceId)))
      .returning();
    if (!updated) throw customerNotFound();
    if (changes.isActive === false) await revokeTokensWhere(tx, eq(customerTokens.customerId, id));
    return updated;
  };
  try {
    // Only a deactivation writes two tables; a plain edit is a single statement.
    return await (changes.isActive === false ? db.transaction(apply) : apply(db));
  } catch (error) {
    if (isUniqueViolation(error, "customers_service_phone_unique")) {
      throw new ApiError("customer_exists", "Another customer already has this phone.");
    }
    throw error;
  }
}
