/** One locale's catalogue: namespaces of words, nested. */
export type Messages = { readonly [key: string]: string | Messages };

/**
 * `base` with `addition`'s words added at every depth (a method's words go under the shared
 * namespaces: `redirect`, `checkout.methods`...). A word both give is an error, not an override:
 * a method cannot silently change another's or the pages' own words.
 */
export function mergeMessages(base: Messages, addition: Messages, path = ""): Messages {
  const merged: Record<string, string | Messages> = { ...base };
  for (const [key, value] of Object.entries(addition)) {
    const existing = merged[key];
    const at = path ? `${path}.${key}` : key;
    if (existing === undefined) merged[key] = value;
    else if (typeof existing === "object" && typeof value === "object")
      merged[key] = mergeMessages(existing, value, at);
    else throw new Error(`The message ${at} is given twice`);
  }
  return merged;
}
