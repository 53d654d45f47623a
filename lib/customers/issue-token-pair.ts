import { randomUUID } from "node:crypto";
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from "../crypto/credential-prefixes";
import type { Clock } from "../clock";
import { hashSecret, randomToken } from "../crypto/secrets";
import type { Db } from "../db/client";
import { customerTokens } from "../db/schema";
import type { TokenPairView } from "./customer-token.schema";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Mints a pair and stores only its hashes. A new family starts at generate; refresh passes
 * the family on, so reuse of any rotated refresh token can revoke every pair descended from it.
 */
export async function issueTokenPair(
  db: Db,
  options: { serviceId: string; customerId: string; clock: Clock; familyId?: string },
): Promise<TokenPairView> {
  const accessToken = `${ACCESS_TOKEN_PREFIX}${randomToken(32)}`;
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
  const now = options.clock.now().getTime();
  await db.insert(customerTokens).values({
    familyId: options.familyId ?? randomUUID(),
    customerId: options.customerId,
    serviceId: options.serviceId,
    accessTokenHash: hashSecret(accessToken),
    refreshTokenHash: hashSecret(refreshToken),
    accessExpiresAt: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
    refreshExpiresAt: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return {
    accessToken,
    refreshToken,
    accessTokenExpiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenExpiresIn: REFRESH_TOKEN_TTL_SECONDS,
  };
}
