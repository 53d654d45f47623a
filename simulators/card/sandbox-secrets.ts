import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual, hmacHex } from "../../lib/crypto/secrets";

/*
 * The sandbox provider's own keys, derived from the gateway key so every gateway instance on
 * one database agrees without storing anything. Each purpose gets its own derivation.
 */

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Provider-style ids (`pi_...`, `pm_...`, `evt_...`, `re_...`): prefix and 24 random alphanumerics. */
export function providerId(prefix: "pi" | "pm" | "evt" | "re"): string {
  const bytes = randomBytes(24);
  let id = "";
  for (const byte of bytes) id += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return `${prefix}_${id}`;
}

/** The provider intent's client secret (`pi_..._secret_...`): what a browser confirms that intent with. */
export function intentClientSecret(gatewayKey: Buffer, intentId: string): string {
  return `${intentId}_secret_${hmacHex(gatewayKey, "card-provider:intent-secret", intentId).slice(0, 32)}`;
}

export function isIntentClientSecret(gatewayKey: Buffer, intentId: string, presented: unknown): boolean {
  return typeof presented === "string" && constantTimeEqual(presented, intentClientSecret(gatewayKey, intentId));
}

/**
 * The same card number always gives the same fingerprint, and the fingerprint gives the
 * number back to nobody: a keyed HMAC, since 16 digits are too few to survive a plain hash.
 */
export function cardFingerprint(gatewayKey: Buffer, digits: string): string {
  return hmacHex(gatewayKey, "card-provider:fingerprint", digits).slice(0, 32);
}

export const SIGNATURE_HEADER = "card-provider-signature";
/** An event older than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function webhookSigningKey(gatewayKey: Buffer): Buffer {
  return Buffer.from(hmacHex(gatewayKey, "card-provider:webhook-signing", "sandbox"), "hex");
}

function signatureOf(gatewayKey: Buffer, timestamp: number, rawBody: string): string {
  return createHmac("sha256", webhookSigningKey(gatewayKey)).update(`${timestamp}.${rawBody}`).digest("hex");
}

/** Stripe-style: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signEvent(gatewayKey: Buffer, rawBody: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${signatureOf(gatewayKey, timestamp, rawBody)}`;
}

export function isGenuineSignature(gatewayKey: Buffer, header: string | null, rawBody: string, now: Date): boolean {
  if (!header || header.length > 1024) return false;
  const parts = new Map<string, string[]>();
  for (const part of header.split(",")) {
    const [name, value] = part.split("=", 2);
    if (!name || !value) continue;
    parts.set(name.trim(), [...(parts.get(name.trim()) ?? []), value.trim()]);
  }
  const timestamp = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = signatureOf(gatewayKey, timestamp, rawBody);
  // Several v1 values may be sent while a signing key rotates; one match is enough.
  return (parts.get("v1") ?? []).some((candidate) => constantTimeEqual(candidate, expected));
}
