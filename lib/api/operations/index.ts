import type { Operation } from "./operation";
import * as customers from "./customers";
import * as events from "./events";
import * as internals from "./internals";
import * as paymentLinks from "./payment-links";
import * as paymentMethods from "./payment-methods";
import * as payments from "./payments";

const METHOD_ORDER = ["GET", "POST", "PUT", "DELETE"];

/**
 * Every /api/v1 operation, by path then method (a module namespace's order differs between
 * loaders); the OpenAPI document and the test helpers read this list.
 */
export const OPERATIONS: readonly Operation[] = (
  [customers, events, internals, paymentLinks, paymentMethods, payments] as Record<string, Operation>[]
)
  .flatMap((module) => Object.values(module))
  .sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));

/** `POST /api/v1/payments/intents/:id/capture` → its operation. */
export function operationKey(operation: Pick<Operation, "method" | "path">): string {
  return `${operation.method} ${operation.path}`;
}
