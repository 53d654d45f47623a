import { isDriverNullSocketWrite } from "./driver-socket-guard";

/**
 * True when `error` is PostgreSQL's unique_violation (23505) on `constraint`. Drizzle wraps
 * driver errors in DrizzleQueryError, and postgres.js and PGlite name the constraint in
 * different fields, so both layers and both spellings are looked at.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    const candidate = current as { code?: unknown; constraint_name?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === "23505") {
      return candidate.constraint_name === constraint || candidate.constraint === constraint;
    }
    current = candidate.cause;
  }
  return false;
}

// postgres.js network and connection-state codes, and the Node socket errors under them.
const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
// SQLSTATE: too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now,
// database_dropped; and the whole connection exception class 08.
const UNAVAILABLE_SQLSTATES = new Set(["53300", "57P01", "57P02", "57P03", "57P04"]);

/**
 * True when `error` says the database cannot be reached right now (refused, dropped, shutting
 * down, starting up), as opposed to a query that is wrong: contract section 12 answers those
 * 503 service_unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailableReason(error) !== undefined;
}

/**
 * What says the database cannot be reached in `error` (ECONNREFUSED, 57P03, ...), or undefined
 * when nothing does. Looks through drizzle's wrapper and AggregateError (a refused connection to
 * localhost tries IPv4 and IPv6), for postgres.js and PGlite alike.
 */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const current = pending.pop() as
      { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const code = typeof current.code === "string" ? current.code : "";
    if (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return code;
    // PGlite after its instance was closed (its process is going down).
    if (typeof current.message === "string" && /PGlite is closed/i.test(current.message)) return "PGlite is closed";
    // postgres.js writing to a connection that already closed (driver-socket-guard.ts).
    if (isDriverNullSocketWrite(current)) return "connection closed";
    pending.push(current.cause);
    if (Array.isArray(current.errors)) pending.push(...current.errors);
  }
  return undefined;
}
