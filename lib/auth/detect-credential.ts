import { ACCESS_TOKEN_PREFIX, PUBLISHABLE_KEY_PREFIX } from "../crypto/credential-prefixes";

const CLIENT_ID = /^[a-z0-9][a-z0-9-]{0,62}\.[a-z0-9][a-z0-9-]{0,62}\.[0-9A-HJKMNP-TV-Z]{26}$/;

export type Credential =
  | { mode: "client"; clientId: string; clientSecret: string }
  | { mode: "merchant"; publishableKey: string; clientSecret: string | null }
  | { mode: "user"; accessToken: string }
  | { mode: "intent_secret"; clientSecret: string };

/**
 * Tells the auth mode from the credential's shape alone, before any database work, so a
 * credential of a mode the endpoint refuses costs nothing. Null: nothing usable was sent.
 */
export function detectCredential(headers: Headers): Credential | null {
  const clientToken = headers.get("x-client-token");
  if (clientToken) return { mode: "user", accessToken: clientToken.trim() };

  const clientSecret = headers.get("x-client-secret")?.trim() || null;
  const authorization = headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!bearer) return clientSecret ? { mode: "intent_secret", clientSecret } : null;

  if (bearer.startsWith(PUBLISHABLE_KEY_PREFIX)) return { mode: "merchant", publishableKey: bearer, clientSecret };
  if (bearer.startsWith(ACCESS_TOKEN_PREFIX)) return { mode: "user", accessToken: bearer };

  const decoded = decodeBase64(bearer);
  const separator = decoded?.indexOf(":") ?? -1;
  if (!decoded || separator <= 0) return null;
  const clientId = decoded.slice(0, separator);
  if (!CLIENT_ID.test(clientId)) return null;
  return { mode: "client", clientId, clientSecret: decoded.slice(separator + 1) };
}

function decodeBase64(value: string): string | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, "base64").toString("utf8");
}

export function basicBearer(clientId: string, clientSecret: string): string {
  return `Bearer ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
}
