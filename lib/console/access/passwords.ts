import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** Contract 13: at least 12 characters. The upper bound keeps one hash from costing more than it should. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

// OWASP's scrypt setting (N=2^17, r=8, p=1): 128 MiB and a few hundred milliseconds per hash,
// which is what makes a stolen table slow to guess. The parameters travel in the hash, so a
// later change still verifies old passwords.
const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$key`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoyHash: Promise<string> | undefined;

/**
 * An unknown email is checked against a decoy hash of the same cost, so it takes as long to
 * refuse as a wrong password: the answer and its timing tell nothing about who has an account.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await decoyHash);
  return false;
}

/** A field error key, or null when the password is acceptable. */
export function passwordProblem(password: string): "too_short" | "too_long" | null {
  if (password.length < PASSWORD_MIN_LENGTH) return "too_short";
  if (password.length > PASSWORD_MAX_LENGTH) return "too_long";
  return null;
}
