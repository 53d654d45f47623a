import { PAYMENT_METHOD_CODES, type PaymentMethodCode } from "../declarations/method-declarations";

/**
 * The payment method codes a proceed names (interface "Payment intents" 2), derived from the methods'
 * declarations; the catalog's rows use them.
 */
export { PAYMENT_METHOD_CODES, type PaymentMethodCode };

export function isPaymentMethodCode(value: unknown): value is PaymentMethodCode {
  return typeof value === "string" && (PAYMENT_METHOD_CODES as readonly string[]).includes(value);
}
