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
export interface TokenPairView {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresIn: number;
  refreshTokenExpiresIn: number;
}
