import { z } from "zod";
import type { ErrorDetail, ErrorName } from "../errors/api-error";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** Contract section 5: at most 255 characters; printable ASCII so it logs and compares plainly. */
export const idempotencyKeySchema = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .regex(/^[\x20-\x7E]+$/, "must be printable ASCII");

/** How long a key is remembered, on the caller's service clock. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim's lease: the request holding it renews it every `renewMs` while it runs, so a claim
 * whose lease has passed belongs to a request that died with its process, and a retry takes it
 * over. Short, so a merchant's retry after a crash waits seconds, not a minute, for its answer.
 */
export const IDEMPOTENCY_LEASE = { seconds: 15, renewMs: 5_000 };
export type IdempotencyLease = typeof IDEMPOTENCY_LEASE;

/** What a key remembers: the first answer, re-rendered on replay under the new request id. */
export interface RememberedResponse {
  status: number;
  message: string;
  data: unknown;
  /** The first answer was this refusal (claim-after-error.ts "remember"): replayed as the same error. */
  error?: RememberedError;
}

export interface RememberedError {
  name: ErrorName;
  details?: ErrorDetail[];
}
