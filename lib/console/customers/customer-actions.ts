import type { ServiceContext, UserPrincipal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { deleteSavedCard } from "../../cards/delete-saved-card";
import { updateCustomer } from "../../customers/update-customer";
import type { CustomerRow } from "../../customers/get-customer";

/*
 * What the console's customer page changes, through the customers and cards domains the API
 * uses: a saved card deleted there leaves every list at once and the provider forgets its token
 * (the detach provider operation); a deactivated customer's tokens are revoked. The page layer
 * adds the role check, the forgery token and the audit entry.
 */

/** Deletes a saved card of the customer; another customer's or service's card is ApiError not_found. */
export function deleteCustomerCard(
  db: Db,
  options: { service: ServiceContext; customerId: string; cardId: string },
): Promise<void> {
  // The card operation is scoped to one customer of one service, as the customer's own call is.
  const principal: UserPrincipal = {
    mode: "user",
    service: options.service,
    customerId: options.customerId,
    tokenId: "console",
  };
  return deleteSavedCard(db, { principal, cardId: options.cardId });
}

/** Deactivates the customer (isActive false, its tokens revoked); another service's customer is ApiError not_found. */
export function deactivateCustomer(db: Db, options: { serviceId: string; customerId: string }): Promise<CustomerRow> {
  return updateCustomer(db, { id: options.customerId, serviceId: options.serviceId, changes: { isActive: false } });
}
