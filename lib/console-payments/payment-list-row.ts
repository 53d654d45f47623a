import type { PaymentState } from "../payments/core/payment-state";
import { checkStatusCode } from "../payments/core/payment-state";
import { isPaymentMethodCode } from "../payment-methods/codes/payment-method-codes";

/** The method column: the wallet, the QR wallet, or the card's brand and last 4 (null: not proceeded yet). */
export type PaymentMethodView =
  | { kind: "wallet" }
  | { kind: "qr_wallet" }
  | { kind: "card"; brand: string | null; last4: string | null }
  | { kind: "satim" }
  | { kind: "clictopay" }
  | { kind: "cmi" }
  | { kind: "chargily" }
  | null;

/** One row of the payments list and of its export (contract 13's columns). */
export interface PaymentListRow {
  id: string;
  createdAt: Date;
  /** What was asked for. */
  amountMinor: number;
  /** The money that moved: captured (a reservation may be captured in part) and given back by refunds. */
  capturedMinor: number;
  refundedMinor: number;
  currency: string;
  state: PaymentState;
  /** Section 11's code, as check reports it. */
  statusCode: number;
  method: PaymentMethodView;
  customerPhone: string;
  customerName: string;
  actionId: string;
}

export interface PaymentListRecord {
  id: string;
  createdAt: Date;
  amountMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  currency: string;
  state: PaymentState;
  paymentMethodCode: string | null;
  transactionType: "QR_CODE" | null;
  cardBrand: string | null;
  cardLast4: string | null;
  customerPhone: string;
  customerName: string;
  actionId: string;
}

export function methodOf(record: Pick<PaymentListRecord, "paymentMethodCode" | "transactionType" | "cardBrand" | "cardLast4">): PaymentMethodView {
  if (record.transactionType === "QR_CODE") return { kind: "qr_wallet" };
  if (!isPaymentMethodCode(record.paymentMethodCode)) return null;
  // Exhaustive: a new method code does not compile until the console says how to show it.
  switch (record.paymentMethodCode) {
    case "WALLET_V2":
      return { kind: "wallet" };
    case "CARD_PROVIDER":
      return { kind: "card", brand: record.cardBrand, last4: record.cardLast4 };
    case "SATIM":
      return { kind: "satim" };
    case "CLICTOPAY":
      return { kind: "clictopay" };
    case "CMI":
      return { kind: "cmi" };
    case "CHARGILY":
      return { kind: "chargily" };
  }
}

export function toPaymentListRow(record: PaymentListRecord): PaymentListRow {
  return {
    id: record.id,
    createdAt: record.createdAt,
    amountMinor: record.amountMinor,
    capturedMinor: record.capturedMinor,
    refundedMinor: record.refundedMinor,
    currency: record.currency,
    state: record.state,
    statusCode: checkStatusCode(record.state),
    method: methodOf(record),
    customerPhone: record.customerPhone,
    customerName: record.customerName,
    actionId: record.actionId,
  };
}
