import { describe, expect, it } from "vitest";
import {
  isCodeExpired,
  leavesForMerchant,
  otpPageMode,
  resendCountdown,
  returnOutcome,
  secondsUntil,
} from "@/lib/hosted/hosted-outcome";
import { PAYMENT_STATES, type PaymentState } from "@/lib/payments/core/payment-state";

const now = new Date("2026-11-21T10:00:00.000Z");
const otp = { resendAvailableAt: "2026-11-21T10:00:20.000Z", expiresAt: "2026-11-21T10:04:30.000Z" };

describe("otpPageMode", () => {
  it("asks for the code only while the payment requires action and has an OTP", () => {
    expect(otpPageMode({ state: "REQUIRES_ACTION", expired: false, hasOtp: true })).toBe("enter_code");
  });

  it("shows the expired message for an open payment past its lifetime", () => {
    expect(otpPageMode({ state: "REQUIRES_ACTION", expired: true, hasOtp: true })).toBe("expired");
  });

  it("treats a card payment (no OTP) and a payment not yet proceeded as no OTP page at all", () => {
    expect(otpPageMode({ state: "REQUIRES_ACTION", expired: false, hasOtp: false })).toBe("unavailable");
    expect(otpPageMode({ state: "CREATED", expired: false, hasOtp: false })).toBe("unavailable");
    expect(otpPageMode({ state: "PROCESSING", expired: false, hasOtp: false })).toBe("unavailable");
  });

  it.each(["PRE_AUTHORIZED", "SUCCEEDED", "FAILED", "CANCELED", "REFUNDED", "PARTIALLY_REFUNDED"] as const)(
    "sends a %s payment to the return page",
    (state) => {
      expect(otpPageMode({ state, expired: true, hasOtp: true })).toBe("finished");
    },
  );
});

describe("returnOutcome", () => {
  it("names the contract's three outcomes", () => {
    expect(returnOutcome("SUCCEEDED")).toBe("successful");
    expect(returnOutcome("FAILED")).toBe("failed");
    expect(returnOutcome("PRE_AUTHORIZED")).toBe("authorized");
  });

  it("keeps an unfinished payment on the return page, and sends every settled one on", () => {
    const pending: PaymentState[] = ["CREATED", "PROCESSING", "REQUIRES_ACTION"];
    for (const state of PAYMENT_STATES) {
      expect(leavesForMerchant(returnOutcome(state)), state).toBe(!pending.includes(state));
    }
  });

  it("tells a buyer returning later that the payment was released or refunded", () => {
    expect(returnOutcome("CANCELED")).toBe("canceled");
    expect(returnOutcome("REFUNDED")).toBe("refunded");
    expect(returnOutcome("PARTIALLY_REFUNDED")).toBe("refunded");
  });
});

describe("OTP timing", () => {
  it("counts whole seconds up to the moment, never below zero", () => {
    expect(secondsUntil("2026-11-21T10:00:20.000Z", now)).toBe(20);
    expect(secondsUntil("2026-11-21T10:00:20.001Z", now)).toBe(21);
    expect(secondsUntil("2026-11-21T09:59:00.000Z", now)).toBe(0);
  });

  it("starts the resend countdown from the payment's clock, not the wall clock", () => {
    const payment = { state: "REQUIRES_ACTION" as const, expired: false, otp };
    expect(resendCountdown(payment, now)).toBe(20);
    // The sandbox clock moved 31 s ahead: the cooldown is over although little real time passed.
    expect(resendCountdown(payment, new Date(now.getTime() + 31_000))).toBe(0);
  });

  it("has no countdown once no code is awaited", () => {
    expect(resendCountdown({ state: "SUCCEEDED", expired: false, otp }, now)).toBeNull();
    expect(resendCountdown({ state: "REQUIRES_ACTION", expired: true, otp }, now)).toBeNull();
    expect(resendCountdown({ state: "REQUIRES_ACTION", expired: false, otp: null }, now)).toBeNull();
  });

  it("knows when the last code outlived its lifetime", () => {
    const payment = { state: "REQUIRES_ACTION" as const, expired: false, otp };
    expect(isCodeExpired(payment, now)).toBe(false);
    expect(isCodeExpired(payment, new Date("2026-11-21T10:04:30.000Z"))).toBe(true);
  });
});
