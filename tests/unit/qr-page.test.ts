import { describe, expect, it } from "vitest";
import { qrPageMode, walletAppMode } from "@/lib/hosted/qr-page";
import { endUserMessage, FAILURE_REASON } from "@/lib/payments/core/payment-messages";
import { PAYMENT_STATES, type PaymentState } from "@/lib/payments/core/payment-state";
import { qrEndUserMessage } from "@/lib/payment-methods/wallet/qr-payment-messages";
import { PAYMENT_METHODS } from "@/lib/payment-methods/registry/payment-method-registry";

const qr = { transactionType: "QR_CODE", paymentMethodCode: "WALLET_V2" };

describe("qrPageMode", () => {
  it("shows the code only while a proceeded QR payment waits, and says so once it ran out of time", () => {
    expect(qrPageMode({ ...qr, state: "PROCESSING", expired: false })).toBe("show_code");
    expect(qrPageMode({ ...qr, state: "PROCESSING", expired: true })).toBe("expired");
  });

  it("sends a settled payment to the return page", () => {
    for (const state of [
      "SUCCEEDED",
      "FAILED",
      "PRE_AUTHORIZED",
      "CANCELED",
      "REFUNDED",
      "PARTIALLY_REFUNDED",
    ] as const) {
      expect(qrPageMode({ ...qr, state, expired: false })).toBe("finished");
    }
  });

  it("has nothing for an intent that is not a proceeded QR wallet payment", () => {
    expect(qrPageMode({ ...qr, state: "CREATED", expired: false })).toBe("unavailable");
    expect(
      qrPageMode({ state: "REQUIRES_ACTION", expired: false, transactionType: null, paymentMethodCode: "WALLET_V2" }),
    ).toBe("unavailable");
    expect(
      qrPageMode({ state: "SUCCEEDED", expired: false, transactionType: null, paymentMethodCode: "CARD_PROVIDER" }),
    ).toBe("unavailable");
  });
});

describe("walletAppMode", () => {
  it("asks while the request is pending and the payment open, and shows a given answer afterwards", () => {
    expect(walletAppMode({ state: "PROCESSING", expired: false, qrStatus: "pending" })).toBe("awaiting");
    expect(walletAppMode({ state: "SUCCEEDED", expired: false, qrStatus: "approved" })).toBe("approved");
    expect(walletAppMode({ state: "REFUNDED", expired: false, qrStatus: "approved" })).toBe("approved");
    expect(walletAppMode({ state: "FAILED", expired: false, qrStatus: "declined" })).toBe("declined");
    expect(walletAppMode({ state: "FAILED", expired: false, qrStatus: "rejected" })).toBe("rejected");
  });

  it("never asks once the payment ran out of time, swept or not", () => {
    expect(walletAppMode({ state: "PROCESSING", expired: true, qrStatus: "pending" })).toBe("expired");
    expect(walletAppMode({ state: "FAILED", expired: true, qrStatus: "pending" })).toBe("expired");
  });
});

describe("qrEndUserMessage (check's endUserMessage in the QR case)", () => {
  const reasons = [null, ...Object.values(FAILURE_REASON)];
  const cases = PAYMENT_STATES.flatMap((state) =>
    reasons.map((reason) => [state, reason] as [PaymentState, string | null]),
  );

  it("has a non-empty text in en, fr and ar for every state and failure reason", () => {
    for (const [state, reason] of cases) {
      const message = qrEndUserMessage(state, reason);
      expect(Object.keys(message).sort()).toEqual(["ar", "en", "fr"]);
      for (const text of Object.values(message)) expect(text.trim().length).toBeGreaterThan(0);
    }
  });

  it("tells the same in English as the plain-text message wherever the QR case has nothing of its own to say", () => {
    const qrSpecific = new Set(["PROCESSING", "REQUIRES_ACTION"]);
    for (const [state, reason] of cases) {
      if (qrSpecific.has(state) || reason === FAILURE_REASON.qrDeclined) continue;
      // The OTP and card reasons never fail a QR payment; their generic wording is enough there.
      if (state === "FAILED" && reason && !["insufficient_funds", "expired"].includes(reason)) continue;
      expect({ state, reason, en: qrEndUserMessage(state, reason).en }).toEqual({
        state,
        reason,
        en: endUserMessage(state, reason, PAYMENT_METHODS.WALLET_V2.endUserMessages),
      });
    }
  });
});
