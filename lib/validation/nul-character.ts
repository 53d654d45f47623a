/*
 * U+0000 (the null character) is never valid in anything a person types, and PostgreSQL text
 * cannot hold it: a query given one fails, which answered 500. The API refuses it with 400
 * (lib/http/endpoint.ts); the pages and forms refuse it here, before anything reads it: every
 * form body in lib/hosted/read-form-body.ts, every page's path and query in proxy.ts.
 */

export function hasNulCharacter(text: string): boolean {
  return text.includes("\0");
}

/** A request target (path and query, as sent) one of whose %-escapes is U+0000. */
export function targetHasNulCharacter(target: string): boolean {
  return target.includes("%00") || hasNulCharacter(target);
}
