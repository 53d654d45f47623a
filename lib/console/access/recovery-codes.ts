import { randomInt } from "node:crypto";
import { hashSecret, hmacHex } from "../../crypto/secrets";

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: a code read off paper is typed right.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** `xxxxx-xxxxx`: 10 characters of 31, about 50 bits, single use. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

const normalized = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * What is stored of a code: an HMAC under the gateway key. About 50 bits is far too few for a
 * plain fast hash (every code of every user could be enumerated from a copy of the database in
 * a day); keyed, a copy of the database alone cannot test a single guess, as for the TOTP
 * secret, which is sealed under the same key. Case and the dash do not matter when typed back.
 */
export function hashRecoveryCode(gatewayKey: Buffer, code: string): string {
  return hmacHex(gatewayKey, "console-recovery-code", normalized(code));
}

/**
 * The hashes a typed code may be stored under: the keyed one, and the plain SHA-256 that codes
 * made before it were kept as (still single use; new codes replace them at the next setup).
 */
export function recoveryCodeHashes(gatewayKey: Buffer, code: string): string[] {
  return [hashRecoveryCode(gatewayKey, code), hashSecret(`recovery:${normalized(code)}`)];
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code.trim());
}
