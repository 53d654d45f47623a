import type { PaymentState } from "../../payments/core/payment-state";
import { checkStatusCode } from "../../payments/core/payment-state";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { QR_INTENT_KIND, type ConsoleMethod } from "./payment-list-filters";

/**
 * The method column: the kind its method's module names (ConsoleListing: `wallet`, `card`, `satim`,
 * ...), `qr_wallet` for a QR intent, with the card's brand and last 4 where the method shows a
 * card (null: not proceeded yet).
 */
export type PaymentMethodView = { kind: ConsoleMethod; brand?: string | null; last4?: string | null } | null;

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

export function methodOf(
  record: Pick<PaymentListRecord, "paymentMethodCode" | "transactionType" | "cardBrand" | "cardLast4">,
): PaymentMethodView {
  if (record.transactionType === "QR_CODE") return { kind: QR_INTENT_KIND };
  const method = paymentMethodOf(record.paymentMethodCode);
  if (!method) return null;
  const { kind, showsCard } = method.console;
  return showsCard ? { kind, brand: record.cardBrand, last4: record.cardLast4 } : { kind };
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
