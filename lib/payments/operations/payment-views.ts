import { z } from "zod";
import { fromMinorUnits } from "../../money/amount";
import { endUserMessage } from "../core/payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import { checkStatusCode } from "../core/payment-state";
import type { ProceedOutcome } from "../../payment-methods/contract/proceed-contract";
import { qrEndUserMessage } from "../../payment-methods/registry/method-entry-points";
import { PAYMENT_METHODS, paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import type { RefundOutcome } from "./refund-payment";

/** Interface "Payment intent" (create response). */
export const paymentIntentView = z
  .object({
    paymentId: z.uuid(),
    clientSecret: z
      .string()
      .regex(/^pa_[0-9a-f-]{36}_secret_[0-9a-f]{32,}$/)
      .meta({ description: "`pa_{paymentId}_secret_{hex}`: scopes merchant_auth calls to this one payment." }),
    status: z.string().meta({
      description:
        "`CREATED` for a new intent; a repeated create with the same actionId answers the intent's current state.",
    }),
    amount: z.number().positive(),
    currency: z.string().length(3),
    expiresAt: z.iso.datetime().meta({
      description: "30 minutes after creation; merchant_auth calls answer 410 `intent_expired` 30 s after it.",
    }),
    checkoutUrl: z.string().meta({
      description:
        "The hosted checkout page: send the buyer there to choose how to pay " +
        "(the methods enabled for the intent's country) instead of proceeding yourself. " +
        "Append `returnUrl` (its origin allow-listed) to say where the buyer comes back.",
    }),
  })
  .meta({ id: "PaymentIntent" });

export type PaymentIntentView = z.infer<typeof paymentIntentView>;

export function toPaymentIntentView(
  payment: PaymentRow,
  created: { clientSecret: string; checkoutUrl: string },
): PaymentIntentView {
  return {
    paymentId: payment.id,
    clientSecret: created.clientSecret,
    status: payment.state,
    amount: fromMinorUnits(payment.amountMinor, payment.currency),
    currency: payment.currency,
    expiresAt: payment.expiresAt.toISOString(),
    checkoutUrl: created.checkoutUrl,
  };
}

/** Interface "Proceed result". */
export const proceedResultView = z
  .object({
    require3DS: z.boolean().meta({
      description:
        "True when the buyer must be sent to `metadata.payUrl`: for the hosted card page and also for the " +
        "wallet's OTP page (the name is historical; a wallet OTP is no 3-D Secure).",
    }),
    statusCode: z.number().int().optional().meta({
      description:
        "12 (go to payUrl), 2, 3 or 13. Absent in the QR wallet result: poll check or wait for the notification.",
    }),
    status: z.string().meta({ description: "Human-readable provider description." }),
    metadata: z
      .object({
        payUrl: z.string().meta({
          description:
            "Hosted OTP or card page; empty string when the buyer has nothing to do. For OTP, append `returnUrl`.",
        }),
        qrImageUrl: z
          .string()
          .optional()
          .meta({ description: "QR image (PNG), for a `QR_CODE` intent proceeded with `WALLET_V2`." }),
        qrPageUrl: z.string().optional().meta({ description: "Hosted QR page showing the image and the live status." }),
      })
      .meta({
        description:
          "Spelled `metadata` here but `metaData` in capture and release results and in the create body: " +
          "both spellings are kept for compatibility.",
      }),
  })
  .meta({ id: "ProceedResult" });

export type ProceedResultView = z.infer<typeof proceedResultView>;

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

/** Contract section 11: every code check can answer. */
const CHECK_STATUS_CODES: readonly number[] = [1, 2, 3, 4, 10, 12, 13, 16];

/** Interface "Check result"; `amount` is the captured amount once something was captured. */
export const checkResultView = z
  .object({
    statusCode: z
      .number()
      .int()
      .refine((code) => CHECK_STATUS_CODES.includes(code), "is not a check status code")
      .meta({
        enum: [...CHECK_STATUS_CODES],
        description:
          "The payment's state code (see the status code table). 4 fully refunded and 16 partially refunded, " +
          "although the refund call itself always answers 4.",
      }),
    paymentMethodName: z.string().meta({ description: "Payment method code used; empty before proceed." }),
    amount: z.number().meta({ description: "The captured amount after a (partial) capture, else the payment amount." }),
    currencyCode: z.string().length(3),
    endUserMessage: z
      .union([
        z.string(),
        z.object({ en: z.string(), fr: z.string(), ar: z.string() }).meta({ id: "LocalizedMessage" }),
      ])
      .meta({
        description:
          "A string, except for a `QR_CODE` payment where it is an object keyed by language (`en`, `fr`, `ar`). " +
          "Clients must accept both.",
      }),
    lastUpdate: z.iso.datetime(),
    paymentOrderId: z.string().optional().meta({ description: "QR case, once the wallet answered." }),
    microServiceTransactionId: z.string().optional().meta({ description: "QR case, once the wallet answered." }),
    approvalCode: z.string().nullable().optional().meta({ description: "QR case, once the wallet answered." }),
  })
  .meta({ id: "CheckResult" });

export type CheckResultView = z.infer<typeof checkResultView>;

/**
 * The words of the payment's method (its module's); a payment no method has proceeded yet keeps the wallet's,
 * as it always did.
 */
const endUserMessagesOf = (code: string | null) => (paymentMethodOf(code) ?? PAYMENT_METHODS.WALLET_V2).endUserMessages;

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
      : endUserMessage(payment.state, payment.failureReason, endUserMessagesOf(payment.paymentMethodCode)),
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
export const captureResultView = z
  .object({
    status: z.string().meta({ description: "Capture: a success text; release: `Reversed`." }),
    statusCode: z.number().int().meta({ description: "Capture: 2; release: 10." }),
    metaData: z
      .object({ payUrl: z.literal("") })
      .meta({ description: "Spelled `metaData` (not `metadata` as in the proceed result); always an empty payUrl." }),
  })
  .meta({ id: "CaptureResult" });

export type CaptureResultView = z.infer<typeof captureResultView>;

export function toCaptureResultView(payment: PaymentRow): CaptureResultView {
  return { status: payment.status, statusCode: checkStatusCode(payment.state), metaData: { payUrl: "" } };
}

export const toReleaseResultView = toCaptureResultView;

/** Interface "Refund result". `transactionAmount` is what was charged (the captured amount). */
export const refundResultView = z
  .object({
    statusCode: z.literal(4).meta({
      description:
        "Always 4 for a refund made through this call, full or partial; check answers 16 for a partially " +
        "refunded payment. Compare `remainingRefundableAmount` with 0 to tell them apart.",
    }),
    status: z.string(),
    refundedAmount: z.number().meta({ description: "Refunded by this request." }),
    totalRefundedAmount: z.number().meta({ description: "Cumulative over every refund of the payment." }),
    transactionAmount: z.number().meta({ description: "What was charged (the captured amount)." }),
    remainingRefundableAmount: z
      .number()
      .meta({ description: "transactionAmount minus totalRefundedAmount; 0 once fully refunded." }),
    microServiceTransactionId: z.string().nullable(),
    errorMessage: z.object({
      internalErrorMessage: z.string().nullable(),
      providerErrorMessage: z.string().nullable(),
    }),
  })
  .meta({ id: "RefundResult" });

export type RefundResultView = z.infer<typeof refundResultView>;

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
