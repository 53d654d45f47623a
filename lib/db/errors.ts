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
