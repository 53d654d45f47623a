import { constantTimeEqual, hmacHex } from "../crypto/secrets";

const CLIENT_SECRET = /^pa_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_secret_([0-9a-f]{64})$/;

/**
 * A payment's client secret is an HMAC of its id under the gateway key: nothing to store,
 * the same value on an idempotent replay, and unforgeable without the key.
 */
export function clientSecretFor(gatewayKey: Buffer, paymentId: string): string {
  return `pa_${paymentId}_secret_${hmacHex(gatewayKey, "client-secret", paymentId)}`;
}

/** The payment id a well-formed, genuine client secret names, else null. */
export function paymentIdFromClientSecret(gatewayKey: Buffer, secret: string): string | null {
  const match = CLIENT_SECRET.exec(secret);
  if (!match) return null;
  const paymentId = match[1]!;
  return constantTimeEqual(match[2]!, hmacHex(gatewayKey, "client-secret", paymentId)) ? paymentId : null;
}

/** Token for a hosted page URL: good for one payment and one page kind only. */
export function pageTokenFor(gatewayKey: Buffer, page: string, paymentId: string): string {
  return hmacHex(gatewayKey, `page-token:${page}`, paymentId);
}

export function isValidPageToken(gatewayKey: Buffer, page: string, paymentId: string, token: string): boolean {
  return constantTimeEqual(token, pageTokenFor(gatewayKey, page, paymentId));
}
