import { createHash, timingSafeEqual } from "node:crypto";

/*
 * CMI's hash "version 3" (hashAlgorithm=ver3), as CMI's 3D Pay Hosting guide and its sample
 * pages compute it on both sides: every posted field but `hash` and `encoding` (any case), sorted
 * by name case-insensitively (PHP's natcasesort), each value with `\` escaped as `\\` and `|` as
 * `\|`, joined with `|`, then `|` and the escaped store key; SHA-512 of that, base64 of its bytes.
 * The same function signs the form the buyer posts and verifies CMI's callback.
 */

const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");

/** The fields in the order the hash takes them: names compared without case, digits as numbers (natcasesort). */
export function cmiHashOrder(names: readonly string[]): string[] {
  return names
    .filter((name) => !["hash", "encoding"].includes(name.toLowerCase()))
    .sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true }) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The plain text the hash is taken over (exported for the tests: it contains the store key, never log it). */
export function cmiHashPlaintext(fields: Readonly<Record<string, string>>, storeKey: string): string {
  return [...cmiHashOrder(Object.keys(fields)).map((name) => escape(fields[name]!)), escape(storeKey)].join("|");
}

export function cmiHash(fields: Readonly<Record<string, string>>, storeKey: string): string {
  return createHash("sha512").update(cmiHashPlaintext(fields, storeKey), "utf8").digest("base64");
}

/** Whether `fields` carry the hash of their own values under `storeKey` (CMI posts it as HASH). */
export function hasValidCmiHash(fields: Readonly<Record<string, string>>, storeKey: string): boolean {
  const given = fields.HASH ?? fields.hash ?? "";
  const expected = cmiHash(fields, storeKey);
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
