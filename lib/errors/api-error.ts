// Domain-level: every layer may throw these, so the type lives below lib/http (which only renders
// them). The contract (section 1) defines each name together with its status, so the table stays
// beside the type; lib/http/respond.ts is the one place that turns an error into a response.

/** Every error name of the contract (section 1) and the HTTP status it answers with. */
export const errorStatus = {
  validation_error: 400,
  amount_exceeds_reserved: 400,
  amount_exceeds_refundable: 400,
  invalid_credentials: 401,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  customer_exists: 409,
  invalid_state: 409,
  request_in_progress: 409,
  intent_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_conflict: 422,
  rate_limited: 429,
  internal_error: 500,
  provider_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorName = keyof typeof errorStatus;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type domain code throws for a refusal the caller sees; `toErrorResponse` renders it. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = errorStatus[errorName];
  }
}

/**
 * A refusal for now: the operation cannot finish yet (a card payment still awaits its buyer),
 * and the same request may succeed later. Answered like any ApiError; an Idempotency-Key does
 * not keep it (lib/idempotency/claim-after-error.ts), so a retry with that key runs again.
 */
export class RetryableRefusalError extends ApiError {}

export const invalidCredentials = (message = "Invalid or missing credentials.") =>
  new ApiError("invalid_credentials", message);

/** Contract section 12: seconds a client should wait before retrying while the database is away. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export const serviceUnavailable = () =>
  new ApiError("service_unavailable", "The service is briefly unavailable. Retry in a few seconds.", undefined, {
    "retry-after": String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
