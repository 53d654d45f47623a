import { ZodError } from "zod";
import { ApiError, RetryableRefusalError, type ErrorName } from "../errors/api-error";

/**
 * What a request that ended in an error leaves of its Idempotency-Key claim (contract 5 and 12):
 * - forget: refused by validation or auth, or an amount the payment cannot take (400: the
 *   request needs correcting); the key is free, so a corrected retry runs;
 * - remember: the operation itself refused (the first response, status included, is replayed);
 * - release: it did not finish (a provider or the database away, another operation still open,
 *   the buyer not done yet (RetryableRefusalError), a crash); the key stays with this request's
 *   parameters, so only the same request takes it up again, and a retry of a provider outage
 *   answers the final outcome once it is known.
 */
export type ClaimAfterError = "forget" | "remember" | "release";

// Every error name decides, so a new one cannot be added without saying what its key keeps.
const AFTER_ERROR: Record<ErrorName, ClaimAfterError> = {
  validation_error: "forget",
  invalid_credentials: "forget",
  origin_not_allowed: "forget",
  rate_limited: "forget",
  method_not_allowed: "forget",
  payload_too_large: "forget",
  unsupported_media_type: "forget",
  amount_exceeds_reserved: "forget",
  amount_exceeds_refundable: "forget",
  not_found: "remember",
  customer_exists: "remember",
  invalid_state: "remember",
  intent_expired: "remember",
  idempotency_conflict: "remember",
  request_in_progress: "release",
  internal_error: "release",
  provider_unavailable: "release",
  service_unavailable: "release",
};

export function claimAfterError(error: unknown): ClaimAfterError {
  // Not the operation's outcome but "not yet" (the buyer has not confirmed): the same request runs again later.
  if (error instanceof RetryableRefusalError) return "release";
  if (error instanceof ApiError) return AFTER_ERROR[error.errorName];
  if (error instanceof ZodError) return "forget";
  return "release";
}
