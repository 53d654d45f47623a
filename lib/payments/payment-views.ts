import { fromMinorUnits } from "../money/amount";
import { endUserMessage } from "./payment-messages";
import type { PaymentRow } from "./payment-record";
import { checkStatusCode } from "./payment-state";
import type { ProceedOutcome } from "./proceed-payment.schema";
import { qrEndUserMessage, type LocalizedMessage } from "./qr-payment-messages";
import type { RefundOutcome } from "./refund-payment";

/** Interface "Payment intent" (create response). */
export interface PaymentIntentView {
  paymentId: string;
  clientSecret: string;
  status: string;
  amount: number;
  currency: string;
  expiresAt: string;
}

export function toPaymentIntentView(payment: PaymentRow, clientSecret: string): PaymentIntentView {
  return {
    paymentId: payment.id,
    clientSecret,
    status: payment.state,
    amount: fromMinorUnits(payment.amountMinor, payment.currency),
    currency: payment.currency,
    expiresAt: payment.expiresAt.toISOString(),
  };
}

/** Interface "Proceed result". */
export interface ProceedResultView {
  require3DS: boolean;
  statusCode?: number;
  status: string;
  metadata: { payUrl: string; qrImageUrl?: string; qrPageUrl?: string };
}

export function toProceedResultView(outcome: ProceedOutcome): ProceedResultView {
  return {
    require3DS: outcome.require3DS,
    ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
    status: outcome.status,
    metadata: {
      payUrl: outcome.payUrl,
      ...(outcome.qrImageUrl !== undefined ? { qrImageUrl: outcome.qrImageUrl } : {}),
      ...(outcome.qrPageUrl !== undefined ? { qrPageUrl: outcome.qrPageUrl } : {}),
    },
  };
}

/** Interface "Check result"; `amount` is the captured amount once something was captured. */
export interface CheckResultView {
  statusCode: number;
  paymentMethodName: string;
  amount: number;
  currencyCode: string;
  /** Keyed by language in the QR case. */
  endUserMessage: string | LocalizedMessage;
  lastUpdate: string;
  // The QR case, once proceeded: what the wallet reported for it.
  paymentOrderId?: string;
  microServiceTransactionId?: string;
  approvalCode?: string | null;
}

export function toCheckResultView(payment: PaymentRow): CheckResultView {
  const amountMinor = payment.capturedMinor > 0 ? payment.capturedMinor : payment.amountMinor;
  const isQr = payment.transactionType === "QR_CODE";
  return {
    statusCode: checkStatusCode(payment.state),
    paymentMethodName: payment.paymentMethodCode ?? "",
    amount: fromMinorUnits(amountMinor, payment.currency),
    currencyCode: payment.currency,
    endUserMessage: isQr
      ? qrEndUserMessage(payment.state, payment.failureReason)
      : endUserMessage(payment.state, payment.failureReason, payment.paymentMethodCode),
    lastUpdate: payment.updatedAt.toISOString(),
    ...(isQr && payment.providerOrderId !== null && payment.providerTransactionId !== null
      ? {
          paymentOrderId: payment.providerOrderId,
          microServiceTransactionId: payment.providerTransactionId,
          approvalCode: payment.approvalCode,
        }
      : {}),
  };
}

/** Interface "Capture and release result". */
export interface CaptureResultView {
  status: string;
  statusCode: number;
  metaData: { payUrl: string };
}

export function toCaptureResultView(payment: PaymentRow): CaptureResultView {
  return { status: payment.status, statusCode: checkStatusCode(payment.state), metaData: { payUrl: "" } };
}

export const toReleaseResultView = toCaptureResultView;

/** Interface "Refund result". `transactionAmount` is what was charged (the captured amount). */
export interface RefundResultView {
  statusCode: number;
  status: string;
  refundedAmount: number;
  totalRefundedAmount: number;
  transactionAmount: number;
  remainingRefundableAmount: number;
  microServiceTransactionId: string | null;
  errorMessage: { internalErrorMessage: string | null; providerErrorMessage: string | null };
}

export function toRefundResultView(outcome: RefundOutcome): RefundResultView {
  const { payment } = outcome;
  const money = (minor: number) => fromMinorUnits(minor, payment.currency);
  return {
    statusCode: 4,
    status: payment.status,
    refundedAmount: money(outcome.refundedMinor),
    totalRefundedAmount: money(payment.refundedMinor),
    transactionAmount: money(payment.capturedMinor),
    remainingRefundableAmount: money(payment.capturedMinor - payment.refundedMinor),
    microServiceTransactionId: outcome.refundId,
    errorMessage: { internalErrorMessage: null, providerErrorMessage: null },
  };
}
