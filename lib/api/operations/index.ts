import type { Operation } from "../operation";
import * as customers from "./customers";
import * as internals from "./internals";
import * as paymentMethods from "./payment-methods";
import * as payments from "./payments";

/** Every /api/v1 operation; the OpenAPI document and the test helpers read this list. */
export const OPERATIONS: readonly Operation[] = [
  ...Object.values(payments),
  ...Object.values(customers),
  ...Object.values(paymentMethods),
  ...Object.values(internals),
] as readonly Operation[];

/** `POST /api/v1/payments/intents/:id/capture` → its operation. */
export function operationKey(operation: Pick<Operation, "method" | "path">): string {
  return `${operation.method} ${operation.path}`;
}
