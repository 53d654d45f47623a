/**
 * A request's route as a metric label when no route template names it (the registry's operations
 * do, lib/http/endpoint.ts; the pages take Next.js's): a segment is kept only when it reads as a
 * word (letters, at most one trailing digit: `v1`), anything else (an id, a token, a phone) becomes
 * `:id`, and only the first six segments count, so no id is ever a label value.
 */
export function genericRouteTemplate(pathname: string): string {
  return pathname
    .split("/")
    .slice(0, 7)
    .map((segment) =>
      segment === "" || (segment.length <= 20 && /^[A-Za-z][A-Za-z._-]*\d?$/.test(segment)) ? segment : ":id",
    )
    .join("/");
}
