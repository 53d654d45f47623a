import { z } from "zod";

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
/** A claim whose request has not finished after this is presumed dead and may be taken over. */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

/** What a key remembers: the first answer, re-rendered on replay under the new request id. */
export interface RememberedResponse {
  status: number;
  message: string;
  data: unknown;
}
