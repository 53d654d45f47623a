import { z } from "zod";
import type { ClientPrincipal, BrowserPrincipal, UserPrincipal } from "../../auth/principal";
import type { StateChangeCause } from "../../payments/core/state-change-cause";
import type { Db } from "../../db/client";
import type { payments } from "../../db/schema";
import { alpha3Schema, platformHeader } from "../../validation/common-headers";
import type { PageLocale } from "../../payments/core/hosted-page-token";
import { PAYMENT_METHOD_CODES } from "../codes/payment-method-codes";
import type { PaymentRow } from "../../db/payment-record";
import { checkStatusCode } from "../../payments/core/payment-state";

export const proceedPaymentBody = z.object({
  paymentMethodCode: z.enum(PAYMENT_METHOD_CODES),
  // Card payments only; the wallet ignores them.
  cardId: z.string().min(1).max(255).optional(),
  redirectUrl: z
    .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
    .max(2048)
    .optional(),
});

/** Headers of proceed and check (interface "Common headers"). */
export const paymentCallHeaders = z.object({
  "x-platform": platformHeader,
  "x-locale": z.string().trim().min(1).max(35).optional(),
  // Deprecated: never resolves the country; kept for mismatch detection only.
  "x-country-code": alpha3Schema.optional(),
});

export type ProceedPaymentBody = z.output<typeof proceedPaymentBody>;
export type PaymentCallHeaders = z.output<typeof paymentCallHeaders>;

export type ProceedPrincipal = ClientPrincipal | BrowserPrincipal | UserPrincipal;

/** What a payment method's proceed handler is given: the locked payment and the request. */
export interface ProceedContext<Prepared = unknown> {
  principal: ProceedPrincipal;
  payment: PaymentRow;
  input: ProceedPaymentBody;
  locale: PageLocale | null;
  now: Date;
  gatewayKey: Buffer;
  /** What was asked of a provider before the transaction (no provider call runs inside it). */
  prepared?: Prepared | null;
  /** The request's Idempotency-Key scope, recorded with a charge it makes (ownerChargeRetried). */
  operationKey?: string;
  /** Who proceeds (the API; the hosted checkout for the buyer): the cause of every change it makes. */
  cause: StateChangeCause;
  /** Facts of this proceed that every outcome writes with its transition. */
  changes: Pick<typeof payments.$inferInsert, "paymentMethodCode" | "platform" | "locale">;
}

export interface ProceedOutcome {
  payment: PaymentRow;
  require3DS: boolean;
  /** Absent in the QR wallet result (interface, "Proceed result"). */
  statusCode?: number;
  status: string;
  /** Empty when the buyer has nothing to do. */
  payUrl: string;
  qrImageUrl?: string;
  qrPageUrl?: string;
  /** A charge the transaction recorded, sent to the provider after it commits (the method's completePendingCharge). */
  pendingCharge?: import("../../provider-operations").ProviderOperationRow;
}

/**
 * One per payment method; runs inside the proceed's transaction, given what its prepareProceed asked of the
 * provider.
 */
export type ProceedHandler<Prepared = unknown> = (tx: Db, context: ProceedContext<Prepared>) => Promise<ProceedOutcome>;

/** The answer of a proceed that leaves the buyer nothing to do (declined, charged, or a retry of a settled charge). */
export function outcomeWithNothingForBuyer(payment: PaymentRow): ProceedOutcome {
  return { payment, require3DS: false, statusCode: checkStatusCode(payment.state), status: payment.status, payUrl: "" };
}
