import type { z } from "zod";
import type { AuthMode } from "../../auth/principal";
import type { ErrorName } from "../../errors/api-error";
import type { EndpointSpec } from "../../http/endpoint";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * One API operation: what `endpoint()` enforces (auth, schemas, status, idempotency) and
 * what the OpenAPI document says about it, in one object, so the two cannot drift.
 */
export interface Operation<
  M extends AuthMode = AuthMode,
  B = unknown,
  Q = unknown,
  H = unknown,
  R = unknown,
  A = never,
> extends EndpointSpec<M, B, Q, H, R, A> {
  method: HttpMethod;
  /** `/api/v1/payments/intents/:id/capture`, as the route folder names it. */
  path: string;
  operationId: string;
  summary: string;
  /** Markdown. */
  description?: string;
  tag: string;
  /** Error names the operation itself throws; those of auth, parsing and idempotency are added. */
  errors?: readonly ErrorName[];
  /** Contract section 9: answers 404 in production. */
  sandboxOnly?: boolean;
  /** Fields the success envelope carries beside `data` (e.g. `hasMore` of a list). */
  envelopeFields?: Record<string, z.ZodType>;
  /** For a response that is not the JSON envelope (the QR image). */
  rawResponse?: { contentType: string; description: string };
  /** Credential-less doors (page token, provider signature), described in words. */
  publicAccess?: string;
}

/** Keeps each operation's literal types (auth modes, schemas) for `endpoint()`. */
export function defineOperation<
  M extends AuthMode = never,
  B = undefined,
  Q = undefined,
  H = undefined,
  R = undefined,
  A = never,
>(operation: Operation<M, B, Q, H, R, A>): Operation<M, B, Q, H, R, A> {
  return operation;
}

/** Every credential is charged to a limit (x-client-secret alone: 120/min per payment, like merchant_auth's secret). */
export function isRateLimited(operation: Operation): boolean {
  return (operation.auth ?? []).length > 0;
}

/** Every error name an operation can answer: its own, plus those its auth, inputs and idempotency imply. */
export function errorNamesOf(operation: Operation): ErrorName[] {
  const names = new Set<ErrorName>(operation.errors ?? []);
  const modes = operation.auth ?? [];
  if (modes.length > 0 || operation.publicAccess?.includes("signature")) names.add("invalid_credentials");
  if (isRateLimited(operation)) names.add("rate_limited");
  if (modes.includes("merchant")) {
    names.add("origin_not_allowed");
    names.add("intent_expired");
  }
  // Every endpoint refuses a query carrying U+0000 (PostgreSQL text cannot hold it).
  if (!operation.rawResponse) names.add("validation_error");
  if (operation.body) {
    names.add("payload_too_large");
    names.add("unsupported_media_type");
  }
  if (operation.idempotent) {
    names.add("request_in_progress");
    names.add("idempotency_conflict");
    // The idempotent operations are those that move money at a provider (contract 12).
    names.add("provider_unavailable");
  }
  if (operation.sandboxOnly) names.add("not_found");
  names.add("method_not_allowed");
  // Contract section 12: every API call answers 503 while the database is away.
  names.add("service_unavailable");
  names.add("internal_error");
  return [...names];
}

export type ResponseOf<O> =
  O extends Operation<AuthMode, unknown, unknown, unknown, infer R>
    ? R extends z.ZodType
      ? z.output<R>
      : never
    : never;
