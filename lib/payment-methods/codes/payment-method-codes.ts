/** The payment method codes a proceed names (interface "Payment intents" 2); the catalog's rows use them. */
export const PAYMENT_METHOD_CODES = ["WALLET_V2", "CARD_PROVIDER", "SATIM", "CLICTOPAY", "CMI", "CHARGILY"] as const;
export type PaymentMethodCode = (typeof PAYMENT_METHOD_CODES)[number];

export function isPaymentMethodCode(value: unknown): value is PaymentMethodCode {
  return typeof value === "string" && (PAYMENT_METHOD_CODES as readonly string[]).includes(value);
}
