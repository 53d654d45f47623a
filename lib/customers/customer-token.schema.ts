import { z } from "zod";

// Bounded so a megabyte "token" is refused before it is hashed.
const tokenString = z.string().min(1).max(512);

export const generateCustomerTokenBody = z.object({
  customerId: z.string().trim().min(1).max(100),
});

export const refreshCustomerTokenBody = z.object({
  refreshToken: tokenString,
  accessToken: tokenString,
});

export const revokeCustomerTokenBody = z.object({
  accessToken: tokenString,
});

/** Interface "Customer access token pair": lifetimes in seconds. */
export const tokenPairView = z
  .object({
    accessToken: z
      .string()
      .meta({ description: "Send as `x-client-token` (or as the Bearer token) for user_auth; lives 15 minutes." }),
    refreshToken: z.string().meta({
      description: "Lives 30 days; each refresh rotates the pair, and reusing a rotated one revokes the whole family.",
    }),
    accessTokenExpiresIn: z.number().int().meta({ description: "Seconds." }),
    refreshTokenExpiresIn: z.number().int().meta({ description: "Seconds." }),
  })
  .meta({ id: "TokenPair" });

export type TokenPairView = z.infer<typeof tokenPairView>;
