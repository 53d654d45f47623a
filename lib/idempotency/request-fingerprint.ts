import { createHash } from "node:crypto";

/** The same request means the same path and the same JSON body, whatever its key order. */
export function requestFingerprint(method: string, pathname: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${pathname}\n${canonicalJson(body ?? {})}`)
    .digest("hex");
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
