import { z } from "zod";
import type { ClientPrincipal, MerchantPrincipal, UserPrincipal } from "../auth/principal";
import type { Db } from "../db/client";
import type { payments } from "../db/schema";
import { alpha3Schema } from "./create-payment-intent.schema";
import type { PageLocale } from "./pay-url";
import type { PaymentRow } from "./payment-record";

export const PAYMENT_METHOD_CODES = ["WALLET_V2", "CARD_PROVIDER"] as const;
export type PaymentMethodCode = (typeof PAYMENT_METHOD_CODES)[number];

export const proceedPaymentBody = z.object({
  paymentMethodCode: z.enum(PAYMENT_METHOD_CODES),
  // Card payments only; the wallet ignores them.
  cardId: z.string().min(1).max(255).optional(),
  redirectUrl: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).max(2048).optional(),
});

export const PLATFORMS = ["API", "WEB", "ANDROID", "IOS"] as const;

/** Headers of proceed and check (interface "Common headers"). */
export const paymentCallHeaders = z.object({
  "x-platform": z.enum(PLATFORMS, { error: "must be one of API, WEB, ANDROID, IOS" }),
  "x-locale": z.string().trim().min(1).max(35).optional(),
  // Deprecated: never resolves the country; kept for mismatch detection only.
  "x-country-code": alpha3Schema.optional(),
});

export type ProceedPaymentBody = z.output<typeof proceedPaymentBody>;
export type PaymentCallHeaders = z.output<typeof paymentCallHeaders>;

export type ProceedPrincipal = ClientPrincipal | MerchantPrincipal | UserPrincipal;

/** What a payment method's proceed handler is given: the locked payment and the request. */
export interface ProceedContext {
  principal: ProceedPrincipal;
  payment: PaymentRow;
  input: ProceedPaymentBody;
  locale: PageLocale | null;
  now: Date;
  gatewayKey: Buffer;
  /** What was asked of a provider before the transaction (no provider call runs inside it). */
  prepared?: PreparedProceed | null;
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
}

/** One per payment method code; runs inside the proceed's transaction. */
/** The card provider intent created before the proceed's transaction. */
export interface PreparedProceed {
  cardIntent?: import("../providers/card/port").ProviderPaymentIntent;
}

export type ProceedHandler = (tx: Db, context: ProceedContext) => Promise<ProceedOutcome>;
