import type { ZodError } from "zod";
import type { ErrorDetail } from "./api-error";

/** A zod failure as the envelope's `details`: one entry per broken rule, paths dotted. */
export function zodDetails(error: ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "(root)",
    message: issue.message,
  }));
}
