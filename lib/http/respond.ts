import { ZodError } from "zod";
import { logger } from "../log";
import { isDatabaseUnavailable } from "../db/errors";
import "../validation/zod-messages";
import { ApiError, serviceUnavailable } from "../errors/api-error";
import { zodDetails } from "../errors/zod-details";

// Re-exported for the edge's own callers (endpoint(), route handlers); the domain imports lib/errors.
export { zodDetails };

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function successResponse(options: {
  requestId: string;
  status?: number;
  message: string;
  data: unknown;
  headers?: Record<string, string>;
  /** Fields the envelope carries beside `data` (e.g. `hasMore` of a list). */
  envelope?: Record<string, unknown>;
}): Response {
  const status = options.status ?? 200;
  const body = {
    code: status,
    status: "success",
    message: options.message,
    data: options.data ?? null,
    ...options.envelope,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...JSON_HEADERS, "x-request-id": options.requestId, ...options.headers },
  });
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    code: error.status,
    status: "error",
    message: error.message,
    error: {
      name: error.errorName,
      requestId,
      ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
    },
  };
}

// The error name of each error response, for the request's access log line (withRequestScope).
const errorNames = new WeakMap<Response, string>();

/** The contract error name a response carries, if it is an error response built here. */
export function errorNameOf(response: Response): string | undefined {
  return errorNames.get(response);
}

/** Any thrown value becomes the contract's envelope; unknown ones a generic 500 that leaks nothing. */
export function toErrorResponse(thrown: unknown, requestId: string, extraHeaders?: Record<string, string>): Response {
  let error: ApiError;
  if (thrown instanceof ApiError) {
    error = thrown;
  } else if (thrown instanceof ZodError) {
    error = new ApiError("validation_error", "The request is invalid.", zodDetails(thrown));
  } else if (isDatabaseUnavailable(thrown)) {
    logger.warn({ requestId, err: thrown }, "database unavailable");
    error = serviceUnavailable();
  } else {
    logger.error({ requestId, err: thrown }, "unhandled error");
    error = new ApiError("internal_error", "An unexpected error occurred. Quote the request id when reporting it.");
  }
  const response = new Response(JSON.stringify(errorBody(error, requestId)), {
    status: error.status,
    headers: { ...JSON_HEADERS, "x-request-id": requestId, ...extraHeaders, ...error.headers },
  });
  errorNames.set(response, error.errorName);
  return response;
}
