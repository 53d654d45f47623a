import type { MethodFundsLookup } from "../../payments/core/method-funds";
import type { ProviderName } from "../../provider-operations";
import type { PaymentMethodCode } from "../codes/payment-method-codes";
import { PAYMENT_METHODS, paymentMethodOf } from "./payment-method-registry";

/**
 * The port lib/payments/core moves funds through (MethodFundsLookup), filled from the module
 * table: each method's own `funds`. The core's callers above it hand this in.
 */
export const methodFunds: MethodFundsLookup = {
  of: (payment) => paymentMethodOf(payment.paymentMethodCode)?.funds ?? null,
  releaseHandlerOf(operation) {
    const handler = Object.values(PAYMENT_METHODS)
      .filter((method) => method.funds.provider === operation.provider && method.funds.releaseKind === operation.kind)
      .flatMap((method) => method.providerOperations)
      .find((candidate) => candidate.provider === operation.provider && candidate.kind === operation.kind);
    // A provider that never holds a reservation (SATIM, Chargily: DIRECT only) has none.
    if (!handler) throw new Error(`${operation.provider} holds no reservation to release`);
    return handler;
  },
};

/** The method codes whose funds move through `provider` (e.g. the audit's wallet payments). */
export function methodCodesOfProvider(provider: ProviderName): PaymentMethodCode[] {
  return (Object.keys(PAYMENT_METHODS) as PaymentMethodCode[]).filter(
    (code) => PAYMENT_METHODS[code].funds.provider === provider,
  );
}
