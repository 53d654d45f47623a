import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import { IDEMPOTENCY_TTL_MS } from "../idempotency/idempotency.schema";
import { operationId, type ProviderOperationRow } from "./provider-operation";
import { findProviderOperation, isOpen } from "./run-provider-operation";

/**
 * The operation a request with an Idempotency-Key stands for. A retry within the key's 24
 * hours (contract 5) finds the operation its first attempt recorded (`operation`), so it
 * answers that outcome. A settled operation older than that belongs to a key the gateway has
 * forgotten: the request is a new one, and its operation id (`id`) is derived from the old
 * one, so a retry of the new request finds the new operation the same way.
 */
export async function findRequestOperation(
  tx: Db,
  options: {
    operationKey: string | undefined;
    paymentId: string;
    now: Date;
    /**
     * What the request asked, when its key does not already stand for its whole body (a console
     * form's key, unlike an Idempotency-Key, is not checked against the body before this): the
     * operation records it, and the same key with another fingerprint is refused (contract 5),
     * not answered with the first request's outcome.
     */
    fingerprint?: string;
  },
): Promise<{ operation: ProviderOperationRow | null; id: string }> {
  let id = operationId(options.operationKey);
  if (!options.operationKey) return { operation: null, id };
  for (;;) {
    const operation = await findProviderOperation(tx, id, { paymentId: options.paymentId });
    if (!operation) return { operation: null, id };
    if (isOpen(operation) || options.now.getTime() - operation.createdAt.getTime() < IDEMPOTENCY_TTL_MS) {
      if (options.fingerprint !== undefined && operation.request.requestFingerprint !== options.fingerprint) {
        throw new ApiError(
          "idempotency_conflict",
          "This form was already submitted with other values; open the payment again to start over.",
        );
      }
      return { operation, id };
    }
    id = operationId(`${id}|after-expiry`);
  }
}
