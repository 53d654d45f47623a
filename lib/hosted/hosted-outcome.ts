import type { PaymentState } from "../payments/core/payment-state";

/**
 * What any hosted payment page (OTP, card, QR) shows for a payment that no longer or not yet
 * waits for the buyer: nothing for one not proceeded or still with the provider, the return
 * page for one that has an outcome.
 */
export function notAwaitingBuyerPageMode(state: Exclude<PaymentState, "REQUIRES_ACTION">): "unavailable" | "finished" {
  switch (state) {
    case "CREATED":
    case "PROCESSING":
      return "unavailable";
    case "PRE_AUTHORIZED":
    case "SUCCEEDED":
    case "FAILED":
    case "CANCELED":
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      return "finished";
  }
}

/** What the OTP page shows for a payment, decided from its state alone. */
export type OtpPageMode = "enter_code" | "expired" | "finished" | "unavailable";

export function otpPageMode(payment: { state: PaymentState; expired: boolean; hasOtp: boolean }): OtpPageMode {
  if (payment.state !== "REQUIRES_ACTION") return notAwaitingBuyerPageMode(payment.state);
  if (payment.expired) return "expired";
  // A card payment also waits in REQUIRES_ACTION, but has no code to enter here.
  return payment.hasOtp ? "enter_code" : "unavailable";
}

/** The return page's heading (contract 10 names the first three). */
export type ReturnOutcome = "successful" | "failed" | "authorized" | "canceled" | "refunded" | "pending";

export function returnOutcome(state: PaymentState): ReturnOutcome {
  switch (state) {
    case "SUCCEEDED":
      return "successful";
    case "FAILED":
      return "failed";
    case "PRE_AUTHORIZED":
      return "authorized";
    // A buyer who comes back to the link after the merchant released or refunded.
    case "CANCELED":
      return "canceled";
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      return "refunded";
    case "CREATED":
    case "PROCESSING":
    case "REQUIRES_ACTION":
      return "pending";
  }
}

/** Only a settled outcome sends the buyer on; an unfinished payment keeps them here. */
export function leavesForMerchant(outcome: ReturnOutcome): boolean {
  return outcome !== "pending";
}

/** Whole seconds from `now` until `iso`, never negative: what a countdown starts from. */
export function secondsUntil(iso: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));
}

export interface OtpTiming {
  state: PaymentState;
  expired: boolean;
  otp: { resendAvailableAt: string; expiresAt: string } | null;
}

/**
 * Seconds until the buyer may ask for a new code, read on the payment's clock (the sandbox
 * clock may run ahead of the wall clock); null when no code is awaited any more.
 */
export function resendCountdown(payment: OtpTiming, now: Date): number | null {
  if (otpPageMode({ ...payment, hasOtp: payment.otp !== null }) !== "enter_code" || !payment.otp) return null;
  return secondsUntil(payment.otp.resendAvailableAt, now);
}

/** The code sent last has outlived its 5 minutes: the buyer needs a new one. */
export function isCodeExpired(payment: OtpTiming, now: Date): boolean {
  return payment.otp !== null && Date.parse(payment.otp.expiresAt) <= now.getTime();
}
