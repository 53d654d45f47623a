import { cardDetach } from "../cards/detach-card-operation";
import { PAYMENT_METHODS } from "../payment-methods/registry/payment-method-registry";
import type { ProviderOperationHandler, ProviderOperationRow } from "../provider-operations";

/**
 * Every provider operation's handler, in one list: the payment methods' own (their module's
 * providerOperations: card capture, cancel and refund; the wallet's charge, which also settles
 * a QR request, capture, release and refund) and the saved card's detach. Nothing registers
 * itself by being imported; the request path names the handler it runs, and reconciliation
 * finds one here for any operation provider_operations holds.
 */
export const PROVIDER_OPERATION_HANDLERS: readonly ProviderOperationHandler[] = [
  ...Object.values(PAYMENT_METHODS).flatMap((method) => method.providerOperations),
  cardDetach,
];

const byKey = new Map(PROVIDER_OPERATION_HANDLERS.map((handler) => [`${handler.provider}:${handler.kind}`, handler]));

/** The handler of a recorded operation; throws for a (provider, kind) no handler is listed for. */
export function handlerOf(operation: Pick<ProviderOperationRow, "provider" | "kind">): ProviderOperationHandler {
  const handler = byKey.get(`${operation.provider}:${operation.kind}`);
  if (!handler) throw new Error(`no provider operation handler for ${operation.provider}:${operation.kind}`);
  return handler;
}
