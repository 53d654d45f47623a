import type { Db } from "../../db/client";
import type { PaymentRow } from "../../db/payment-record";
import { ApiError } from "../../errors/api-error";
import type { ProviderName, ProviderOperationHandler, ProviderOperationRow } from "../../provider-operations";

/*
 * The port through which the core moves a payment's funds without knowing its method. Every
 * provider goes through the provider-operation boundary (lib/provider-operations: recorded,
 * called outside the transaction, settled after). Each method describes its own funds in its
 * folder (lib/payment-methods/<method>/, the module's `funds`); the registry answers
 * MethodFundsLookup, and whoever calls the core from above hands it in (an argument, never a
 * registration), so the core imports no method and no call can forget them.
 */

/** How one payment method's funds move. */
export interface MethodFunds {
  /** Whose provider operations capture, release and refund it. */
  provider: ProviderName;
  /** The kind under which its provider returns a reservation's funds. */
  releaseKind: "cancel" | "release";
  /** What every operation on the payment sends its provider. Read inside the recording transaction. */
  request(tx: Db, payment: PaymentRow): Promise<Record<string, unknown>>;
  /** At the expiry of an open payment (expire-payment.ts). */
  expiry: MethodExpiry;
}

export interface MethodExpiry {
  /** A charge sent and not settled: the payment waits for it instead of expiring. */
  chargeOpen(tx: Db, payment: PaymentRow): Promise<boolean>;
  /** What the expired payment's provider still holds open, closed with it (inside the expiry's transaction). */
  closeUnfinished(tx: Db, payment: PaymentRow): Promise<void>;
  /**
   * After the expiry's transaction commits: what the method settles at its provider outside it
   * (a QR request withdrawn at the wallet when its open charge kept the payment from expiring).
   * Answers the payment as it stands. Absent: nothing is left to settle outside.
   */
  afterCommit?(db: Db, payment: PaymentRow): Promise<PaymentRow>;
}

/** What the core asks of the methods above it; lib/payment-methods/registry provides it (methodFunds). */
export interface MethodFundsLookup {
  /** The funds of the payment's method; null for a payment no method has proceeded. */
  of(payment: Pick<PaymentRow, "paymentMethodCode">): MethodFunds | null;
  /** The handler that completes a recorded operation returning a reservation's funds (kind releaseKind). */
  releaseHandlerOf(operation: Pick<ProviderOperationRow, "provider" | "kind">): ProviderOperationHandler;
}

/**
 * The funds of a payment whose money moves now (capture, release, refund, the 7-day release): its method must
 * have proceeded it.
 */
export function fundsOrThrow(methods: MethodFundsLookup, payment: PaymentRow): MethodFunds {
  const funds = methods.of(payment);
  if (!funds)
    throw new ApiError(
      "invalid_state",
      `${payment.paymentMethodCode ?? "This payment method"} cannot move funds here.`,
    );
  return funds;
}
