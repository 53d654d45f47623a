import { isPaymentMethodCode, type PaymentMethodCode } from "../codes/payment-method-codes";
import type { PaymentMethodModule } from "../contract/payment-method-module";
import { cardMethod } from "../card/card-method";
import { walletMethod } from "../wallet/wallet-method";
import { satimMethod } from "../satim/satim-method";
import { clictopayMethod } from "../clictopay/clictopay-method";
import { cmiMethod } from "../cmi/cmi-method";
import { chargilyMethod } from "../chargily/chargily-method";

/**
 * The one table of payment methods' modules: each code's module (lib/payment-methods/<method>/).
 * The codes come from the methods' declarations (lib/payment-methods/declarations, which load no
 * payment code): a declared code without a module here does not compile. Nothing registers itself
 * by being imported: whoever needs a method asks this table.
 */
// `any`: each module keeps its own Prepared type, which only the module itself produces and reads.
export const PAYMENT_METHODS: { readonly [Code in PaymentMethodCode]: PaymentMethodModule<any> } = {
  WALLET_V2: walletMethod,
  CARD_PROVIDER: cardMethod,
  SATIM: satimMethod,
  CLICTOPAY: clictopayMethod,
  CMI: cmiMethod,
  CHARGILY: chargilyMethod,
};

/**
 * Whether the payment is a QR_CODE intent proceeded with a method whose app answers it (the QR page's and the
 * wallet app's payments).
 */
export function isProceededQrPayment(payment: {
  transactionType: string | null;
  paymentMethodCode: string | null;
}): boolean {
  return (
    payment.transactionType === "QR_CODE" &&
    paymentMethodOf(payment.paymentMethodCode)?.showsQrCodeForQrIntents === true
  );
}

/** The module of a proceeded payment's method; null for a payment no method has proceeded. */
export function paymentMethodOf(code: string | null | undefined): PaymentMethodModule<unknown> | null {
  return isPaymentMethodCode(code) ? PAYMENT_METHODS[code] : null;
}
