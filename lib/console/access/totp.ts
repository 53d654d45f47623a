import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "../../crypto/secrets";

/** RFC 6238 as authenticator apps expect it: HMAC-SHA1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** A code of the step before or after is accepted too: a phone's clock may be a little off. */
const ALLOWED_DRIFT_STEPS = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** 20 random bytes (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

export function totpStepAt(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** RFC 4226 HOTP of one step (RFC 6238's counter). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

/** The step whose code `code` is, within the allowed drift of `at`; null when none. */
export function matchingTotpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStepAt(at);
  let found: number | null = null;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (let step = now - ALLOWED_DRIFT_STEPS; step <= now + ALLOWED_DRIFT_STEPS; step += 1) {
    if (constantTimeEqual(totpCode(secret, step), code) && found === null) found = step;
  }
  return found;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, options: { issuer: string; account: string }): string {
  const label = encodeURIComponent(`${options.issuer}:${options.account}`);
  const query = new URLSearchParams({
    secret,
    issuer: options.issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
