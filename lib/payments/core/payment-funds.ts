import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { isPaymentMethodCode, type PaymentMethodCode } from "../../payment-methods/codes/payment-method-codes";
import type { ProviderName } from "../../provider-operations";
import { cancelUnfinishedCardIntent, cardOperationRequest } from "./card-operations";
import { hasOpenWalletCharge } from "./wallet-charge-record";
import type { PaymentRow } from "../../db/payment-record";
import { walletOperationRequest } from "./wallet-operations";
import { redirectOperationRequest, releaseUnfinishedRedirectOrder } from "./redirect-record";

/*
 * Where a processed payment's money moves: every provider goes through the provider-operation
 * boundary (lib/provider-operations: recorded, called outside the transaction, settled after).
 * This sits in lib/payments/core, below the method modules, because the 7-day release on read
 * (open-payment.ts) returns a hold without going through a method's proceed.
 */

/** How one payment method's funds move. */
interface MethodFunds {
  /** Whose provider operations capture, release and refund it. */
  provider: ProviderName;
  /** The kind under which its provider returns a reservation's funds. */
  releaseKind: "cancel" | "release";
  /** What every operation on the payment sends its provider. Read inside the recording transaction. */
  request(tx: Db, payment: PaymentRow): Promise<Record<string, unknown>>;
  /** At the expiry of an open payment (expire-payment.ts). */
  expiry: MethodExpiry;
}

interface MethodExpiry {
  /** A charge sent and not settled: the payment waits for it instead of expiring. */
  chargeOpen(tx: Db, payment: PaymentRow): Promise<boolean>;
  /** What the expired payment's provider still holds open, closed with it. */
  closeUnfinished(tx: Db, payment: PaymentRow): Promise<void>;
}

/** One row per method: a code without one does not compile. */
const METHOD_FUNDS: { readonly [Code in PaymentMethodCode]: MethodFunds } = {
  WALLET_V2: {
    provider: "wallet",
    releaseKind: "release",
    request: async (_tx, payment) => walletOperationRequest(payment),
    expiry: { chargeOpen: (tx, payment) => hasOpenWalletCharge(tx, payment.id), closeUnfinished: async () => {} },
  },
  CARD_PROVIDER: {
    provider: "card",
    releaseKind: "cancel",
    request: cardOperationRequest,
    expiry: { chargeOpen: async () => false, closeUnfinished: cancelUnfinishedCardIntent },
  },
  // DIRECT only (no release). An order left unpaid at expiry lapses at the provider; one paid
  // after it is reversed by settleRedirectPayment (lib/payment-methods/redirect).
  SATIM: {
    provider: "satim",
    releaseKind: "release",
    request: redirectOperationRequest,
    expiry: { chargeOpen: async () => false, closeUnfinished: async () => {} },
  },
  // DIRECT and RESERVATION. An order registered and not finished at expiry is reversed at the
  // provider (deferred, reconciliation sends it), so no pre-authorization outlives its payment.
  CLICTOPAY: {
    provider: "clictopay",
    releaseKind: "release",
    request: redirectOperationRequest,
    expiry: { chargeOpen: async () => false, closeUnfinished: (tx, payment) => releaseUnfinishedRedirectOrder(tx, payment, "clictopay") },
  },
  // DIRECT and RESERVATION, as ClicToPay: a reservation's order not finished at expiry is voided at CMI.
  CMI: {
    provider: "cmi",
    releaseKind: "release",
    request: redirectOperationRequest,
    expiry: { chargeOpen: async () => false, closeUnfinished: (tx, payment) => releaseUnfinishedRedirectOrder(tx, payment, "cmi") },
  },
  // DIRECT only. Chargily's API cannot refund, so a checkout left unpaid at expiry is closed at
  // once (POST /checkouts/{id}/expire, deferred): a buyer still on its page cannot pay it after.
  CHARGILY: {
    provider: "chargily",
    releaseKind: "release",
    request: redirectOperationRequest,
    expiry: { chargeOpen: async () => false, closeUnfinished: (tx, payment) => releaseUnfinishedRedirectOrder(tx, payment, "chargily", { everyCapture: true }) },
  },
};

/** The method codes whose funds move through `provider` (e.g. the card payments reconciliation asks the card provider about). */
export function methodCodesOfProvider(provider: ProviderName): PaymentMethodCode[] {
  return (Object.keys(METHOD_FUNDS) as PaymentMethodCode[]).filter((code) => METHOD_FUNDS[code].provider === provider);
}

/** What the expiry of the payment's method does besides failing it; null for a payment no method has proceeded. */
export function expiryOf(payment: Pick<PaymentRow, "paymentMethodCode">): MethodExpiry | null {
  return isPaymentMethodCode(payment.paymentMethodCode) ? METHOD_FUNDS[payment.paymentMethodCode].expiry : null;
}

function fundsOf(payment: PaymentRow): MethodFunds {
  const code = payment.paymentMethodCode;
  if (!isPaymentMethodCode(code)) throw new ApiError("invalid_state", `${code ?? "This payment method"} cannot move funds here.`);
  return METHOD_FUNDS[code];
}

export const operationProviderOf = (payment: PaymentRow): ProviderName => fundsOf(payment).provider;

/** The kind under which the payment's provider returns a reservation's funds. */
export const releaseKindOf = (payment: PaymentRow) => fundsOf(payment).releaseKind;

/** What every operation on the payment sends its provider. Read inside the recording transaction. */
export const operationRequest = (tx: Db, payment: PaymentRow): Promise<Record<string, unknown>> => fundsOf(payment).request(tx, payment);
