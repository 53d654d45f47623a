import { and, eq, isNull, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import { constantTimeEqual, hashSecret } from "../crypto/secrets";
import type { Db } from "../db/client";
import { customers, customerTokens } from "../db/schema";
import { invalidCredentials } from "../errors/api-error";
import type { TokenPairView } from "./customer-token.schema";
import { issueTokenPair } from "./issue-token-pair";
import { revokeTokensWhere } from "./revoke-tokens";

/**
 * Rotates a pair (RFC 9700 refresh token rotation). The presented row is marked rotated by a
 * conditional UPDATE, so of two parallel refreshes with one refresh token exactly one wins;
 * the loser is a reuse like any other and revokes the whole family, the winner's new pair
 * included: the gateway cannot tell a racing client from a thief replaying a stolen token.
 * Every refusal is the same 401.
 */
export async function refreshCustomerToken(
  db: Db,
  options: { serviceId: string; refreshToken: string; accessToken: string; clock: Clock },
): Promise<TokenPairView> {
  const { serviceId, clock } = options;
  const accessTokenHash = hashSecret(options.accessToken);
  const now = clock.now();

  // Returns instead of throwing so a family revocation commits before the 401.
  const pair = await db.transaction(async (tx): Promise<TokenPairView | null> => {
    const [presented] = await tx
      .select({
        id: customerTokens.id,
        familyId: customerTokens.familyId,
        customerId: customerTokens.customerId,
        accessTokenHash: customerTokens.accessTokenHash,
        refreshExpiresAt: customerTokens.refreshExpiresAt,
        rotatedAt: customerTokens.rotatedAt,
        revokedAt: customerTokens.revokedAt,
        customerActive: customers.isActive,
      })
      .from(customerTokens)
      .innerJoin(customers, eq(customers.id, customerTokens.customerId))
      .where(
        and(
          eq(customerTokens.refreshTokenHash, hashSecret(options.refreshToken)),
          eq(customerTokens.serviceId, serviceId),
        ),
      )
      .limit(1)
      // Parallel refreshes of one token queue here rather than race their family revocations
      // into a deadlock: each sees the previous one's outcome.
      .for("update", { of: customerTokens });
    if (!presented) return null;
    if (presented.rotatedAt) {
      await revokeFamily(tx, presented.familyId);
      return null;
    }
    if (
      presented.revokedAt ||
      !constantTimeEqual(presented.accessTokenHash, accessTokenHash) ||
      presented.refreshExpiresAt.getTime() <= now.getTime() ||
      !presented.customerActive
    ) {
      return null;
    }
    const [rotated] = await tx
      .update(customerTokens)
      .set({ rotatedAt: sql`now()` })
      .where(
        and(eq(customerTokens.id, presented.id), isNull(customerTokens.rotatedAt), isNull(customerTokens.revokedAt)),
      )
      .returning({ id: customerTokens.id });
    if (!rotated) {
      // A parallel refresh rotated it between our read and this update.
      await revokeFamily(tx, presented.familyId);
      return null;
    }
    return issueTokenPair(tx, { serviceId, customerId: presented.customerId, clock, familyId: presented.familyId });
  });
  if (!pair) throw invalidCredentials();
  return pair;
}

function revokeFamily(db: Db, familyId: string) {
  return revokeTokensWhere(db, eq(customerTokens.familyId, familyId));
}
