import { ACCESS_TOKEN_PREFIX, PUBLISHABLE_KEY_PREFIX } from "../crypto/credential-prefixes";
import type { Credential } from "./detect-credential";
import type { AuthMode } from "./principal";

/**
 * The 401 messages (contract 1, SECURITY.md non-enumeration). Each one is chosen from the
 * request's shape alone (which headers, which scheme, which format) and never from what the
 * database holds, so it tells how to send a credential, never whether one exists.
 */
const EXPECTED: Record<AuthMode, string> = {
  client: "client_auth (Authorization: Bearer <base64 of clientId:clientSecret>)",
  merchant:
    "merchant_auth (Authorization: Bearer <publishable key pk_service_...> " +
    "and x-client-secret: <the intent's client secret>)",
  user: "user_auth (x-client-token: <customer access token cat_...>)",
  intent_secret: "the intent's client secret in x-client-secret",
};

const SENT: Record<AuthMode, string> = {
  client: "a client_auth credential",
  merchant: "a merchant_auth credential",
  user: "a user_auth access token",
  intent_secret: "only an x-client-secret",
};

export const GENERIC_REJECTION = "Invalid or missing credentials.";

export function expectedCredentials(modes: readonly AuthMode[]): string {
  return `This endpoint expects ${modes.map((mode) => EXPECTED[mode]).join(" or ")}`;
}

/** Why no usable credential was found: nothing sent, another scheme, or the pair not encoded. */
export function malformedCredentialMessage(headers: Headers, modes: readonly AuthMode[]): string {
  const expected = expectedCredentials(modes);
  const authorization = headers.get("authorization")?.trim();
  if (!authorization) return `No credentials were sent. ${expected}.`;
  const [scheme = "", value = ""] = authorization.split(/\s+/, 2);
  if (scheme.toLowerCase() !== "bearer")
    return `The Authorization header uses the ${scheme} scheme; use Bearer. ${expected}.`;
  if (!value) return `The Bearer credential is empty. ${expected}.`;
  if (value.includes(":")) {
    return (
      "The Bearer credential must be the base64 encoding of clientId:clientSecret, not the pair itself. " +
      `${expected}.`
    );
  }
  return (
    "The Bearer credential is not in a format this gateway issues: " +
    "base64 of clientId:clientSecret (client id TENANT.SERVICE.ULID), " +
    `a publishable key ${PUBLISHABLE_KEY_PREFIX}... or an access token ${ACCESS_TOKEN_PREFIX}.... ${expected}.`
  );
}

/** A well-formed credential of a mode this endpoint does not take, or an incomplete merchant_auth pair. */
export function wrongModeMessage(credential: Credential, modes: readonly AuthMode[]): string {
  return `${expectedCredentials(modes)}; the request carries ${SENT[credential.mode]}.`;
}

export const MERCHANT_PAIR_INCOMPLETE =
  "merchant_auth needs both Authorization: Bearer <publishable key> and x-client-secret: <the intent's client secret>.";

/**
 * A well-formed credential that was refused (unknown, revoked, expired, wrong secret, or an
 * x-service naming another service): one message for all, which only mentions x-service when
 * the request sent one, valid credential or not.
 */
export function rejectedCredentialMessage(headers: Headers): string {
  if (headers.has("x-service")) {
    return "Invalid credentials, or an x-service header that is not the service code of these credentials.";
  }
  return GENERIC_REJECTION;
}
