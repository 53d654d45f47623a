import type { Clock } from "../clock";
import type { Db } from "../db/client";
import type { TokenPairView } from "./customer-token.schema";
import { customerNotFound, getCustomerOrThrow } from "./get-customer";
import { issueTokenPair } from "./issue-token-pair";

/** A first pair for one of the caller's active customers; anything else is the same 404. */
export async function generateCustomerToken(
  db: Db,
  options: { serviceId: string; customerId: string; clock: Clock },
): Promise<TokenPairView> {
  const customer = await getCustomerOrThrow(db, { id: options.customerId, serviceId: options.serviceId });
  if (!customer.isActive) throw customerNotFound();
  return issueTokenPair(db, { serviceId: options.serviceId, customerId: customer.id, clock: options.clock });
}
