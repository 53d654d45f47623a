import { randomInt } from "node:crypto";
import { hashSecret } from "../crypto/secrets";

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

/** Case and the dash do not matter when typed back. */
export function hashRecoveryCode(code: string): string {
  return hashSecret(`recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, "")}`);
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code.trim());
}
