import { and, eq, inArray } from "drizzle-orm";
import { hashSecret } from "../crypto/secrets";
import type { Db } from "../db/client";
import { customerTokens } from "../db/schema";
import { revokeTokensWhere } from "./revoke-tokens";

/**
 * Ends the session the access token belongs to: its pair and every pair of its family stop
 * working at once, including one a racing refresh is minting. Like RFC 7009, an unknown,
 * expired or already revoked token answers the same success, so revoke cannot be used to
 * test whether a token exists; another service's token is left untouched.
 */
export async function revokeCustomerToken(db: Db, options: { serviceId: string; accessToken: string }): Promise<void> {
  const family = db
    .select({ familyId: customerTokens.familyId })
    .from(customerTokens)
    .where(
      and(
        eq(customerTokens.accessTokenHash, hashSecret(options.accessToken)),
        eq(customerTokens.serviceId, options.serviceId),
      ),
    );
  await revokeTokensWhere(
    db,
    and(inArray(customerTokens.familyId, family), eq(customerTokens.serviceId, options.serviceId)),
  );
}
