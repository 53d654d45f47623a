import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { otpChallenges } from "@/simulators/wallet/wallet-tables";
import { getHostedPayment } from "@/lib/payments/hosted/get-hosted-payment";
import { resendPaymentOtp } from "@/lib/payment-methods/wallet/hosted/resend-payment-otp";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { rejection } from "../support/rejection";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paymentRow,
  proceed,
  proceedToOtp,
  serverHeaders,
  serviceIdOf,
  walletLedger,
  type IntentOverrides,
} from "../support/payments";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";

const { api } = useTestGateway();

/** An intent proceeded by the merchant server, awaiting the buyer's OTP. */
async function awaitingOtp(merchant: OnboardedMerchant, overrides: IntentOverrides = {}) {
  const intent = await createIntent(api, merchant, overrides);
  return { ...intent, token: await proceedToOtp(api, merchant, intent.paymentId, { "x-locale": "fr_FR" }) };
}

describe("OTP verification (hosted page domain operations)", () => {
  it("completes a DIRECT payment with the right code: 2, debited, notified, check says 2", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant, { amount: 99.99 });
    const db = await getDb();
    const result = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" });
    expect(result).toEqual({ statusCode: 2, state: "SUCCEEDED", attemptsLeft: 5 });
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - 9999,
      ledgerBalanceMinor: OPENING_DZD - 9999,
      heldMinor: 0,
    });
    const checked = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ statusCode: 2, amount: 99.99, paymentMethodName: "WALLET_V2" });
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.succeeded", 2],
    ]);
  });

  it("pre-authorizes a RESERVATION with the right code: 13 and a hold", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant, { amount: 300, captureMethod: "RESERVATION" });
    const result = await submitPaymentOtp(await getDb(), {
      paymentId: intent.paymentId,
      token: intent.token,
      code: "123456",
    });
    expect(result).toEqual({ statusCode: 13, state: "PRE_AUTHORIZED", attemptsLeft: 5 });
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      heldMinor: 30000,
    });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized"]);
  });

  it("fails with 3 when the balance no longer covers the payment at confirmation", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await awaitingOtp(merchant, { userId: customer.phone, amount: 7000 });
    const other = await createIntent(api, merchant, { userId: customer.phone, amount: 5000 });
    await proceed(api, other.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    const result = await submitPaymentOtp(await getDb(), {
      paymentId: intent.paymentId,
      token: intent.token,
      code: "123456",
    });
    expect(result).toMatchObject({ statusCode: 3, state: "FAILED" });
    expect((await paymentRow(intent.paymentId)).failureReason).toBe("insufficient_funds");
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 500000);
  });

  it("counts wrong codes down and fails the payment at the fifth (3)", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    const db = await getDb();
    for (const attemptsLeft of [4, 3, 2, 1]) {
      const result = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "000000" });
      expect(result).toEqual({ statusCode: 12, state: "REQUIRES_ACTION", attemptsLeft });
    }
    const last = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "654321" });
    expect(last).toEqual({ statusCode: 3, state: "FAILED", attemptsLeft: 0 });
    expect((await paymentRow(intent.paymentId)).failureReason).toBe("otp_attempts_exhausted");
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.failed", 3],
    ]);
    // The right code is too late now.
    const late = await rejection(
      submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" }),
    );
    expect(late.errorName).toBe("invalid_state");
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
  });

  it("refuses a wrong token (invalid_credentials), a payment not awaiting a code (invalid_state)", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    const db = await getDb();
    const badToken = await rejection(
      submitPaymentOtp(db, { paymentId: intent.paymentId, token: "0".repeat(64), code: "123456" }),
    );
    expect(badToken.errorName).toBe("invalid_credentials");
    const otherPayment = await awaitingOtp(merchant);
    const crossed = await rejection(
      submitPaymentOtp(db, { paymentId: otherPayment.paymentId, token: intent.token, code: "123456" }),
    );
    expect(crossed.errorName).toBe("invalid_credentials");
    expect((await paymentRow(otherPayment.paymentId)).state).toBe("REQUIRES_ACTION");

    await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" });
    const again = await rejection(
      submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" }),
    );
    expect(again.errorName).toBe("invalid_state");
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 150000);
  });

  it("keeps the code only as a salted hash", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    const [row] = await (
      await getDb()
    )
      .select()
      .from(otpChallenges)
      .where(eq(otpChallenges.paymentId, intent.paymentId));
    expect(JSON.stringify(row)).not.toContain("123456");
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("lets a new code be sent only after 30 s, keeping the wrong-attempt count", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    const db = await getDb();
    const early = await rejection(resendPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token }));
    expect(early.errorName).toBe("invalid_state");
    const view = await getHostedPayment(db, { paymentId: intent.paymentId, token: intent.token });
    expect(early.message).toContain(view!.otp!.resendAvailableAt);

    await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "111111" });
    await advanceClock(api, merchant, 31);
    const resent = await resendPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token });
    const after = await getHostedPayment(db, { paymentId: intent.paymentId, token: intent.token });
    expect(after!.otp).toMatchObject({ attemptsLeft: 4, resendAvailableAt: resent.resendAvailableAt });
    expect(new Date(after!.otp!.expiresAt).getTime() - new Date(resent.resendAvailableAt).getTime()).toBe(270_000);
    const tooSoon = await rejection(resendPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token }));
    expect(tooSoon.errorName).toBe("invalid_state");
  });

  it("refuses a code older than 5 minutes until a new one is sent", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    const db = await getDb();
    await advanceClock(api, merchant, 5 * 60 + 1);
    const stale = await rejection(
      submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" }),
    );
    expect(stale.errorName).toBe("invalid_state");
    expect(stale.message).toMatch(/expired/);
    await resendPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token });
    const result = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" });
    expect(result.statusCode).toBe(2);
  });

  it("fails an OTP submitted past the intent's grace: 3, expired, notified", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    await advanceClock(api, merchant, 30 * 60 + 31);
    const db = await getDb();
    const result = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" });
    expect(result).toMatchObject({ statusCode: 3, state: "FAILED" });
    expect((await paymentRow(intent.paymentId)).failureReason).toBe("expired");
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.failed", 3],
    ]);
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
  });

  it("accepts an OTP within the 30 s grace after expiresAt", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    await advanceClock(api, merchant, 30 * 60 + 10);
    const db = await getDb();
    await resendPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token });
    const result = await submitPaymentOtp(db, { paymentId: intent.paymentId, token: intent.token, code: "123456" });
    expect(result.statusCode).toBe(2);
  });

  it("answers intent_expired to a resend past the grace and fails the payment", async () => {
    const merchant = await createMerchant();
    const intent = await awaitingOtp(merchant);
    await advanceClock(api, merchant, 31 * 60);
    const error = await rejection(
      resendPaymentOtp(await getDb(), { paymentId: intent.paymentId, token: intent.token }),
    );
    expect(error.errorName).toBe("intent_expired");
    expect((await paymentRow(intent.paymentId)).state).toBe("FAILED");
  });
});

describe("getHostedPayment", () => {
  it("shows the page everything it needs, and nothing for a wrong token", async () => {
    const merchant = await createMerchant({
      redirectUrl: "https://shop.example/return",
      origins: ["https://shop.example"],
    });
    const intent = await awaitingOtp(merchant, {
      amount: 12.345,
      actionCurrencyCode: "TND",
      actionCountryCode: "TUN",
      captureMethod: "RESERVATION",
    });
    const db = await getDb();
    const view = await getHostedPayment(db, { paymentId: intent.paymentId, token: intent.token });
    expect(view).toEqual({
      paymentId: intent.paymentId,
      serviceId: await serviceIdOf(merchant),
      serviceCountries: ["DZA", "MAR", "TUN"],
      country: "TUN",
      merchantName: merchant.name,
      amount: 12.345,
      amountMinor: 12345,
      currency: "TND",
      state: "REQUIRES_ACTION",
      statusCode: 12,
      captureMethod: "RESERVATION",
      paymentMethodCode: "WALLET_V2",
      termsUrl: null,
      transactionType: null,
      otp: { attemptsLeft: 5, resendAvailableAt: expect.any(String), expiresAt: expect.any(String) },
      expired: false,
      serviceRedirectUrl: "https://shop.example/return",
      allowedOrigins: ["https://shop.example"],
      redirectUrl: null,
      locale: "fr",
      failureReason: null,
    });
    expect(await getHostedPayment(db, { paymentId: intent.paymentId, token: "nope" })).toBeNull();
    expect(
      await getHostedPayment(db, { paymentId: "00000000-0000-4000-8000-000000000000", token: intent.token }),
    ).toBeNull();
    expect(await getHostedPayment(db, { paymentId: "garbage", token: intent.token })).toBeNull();
  });

  it("reports an intent past its grace as expired, and a finished one as not", async () => {
    const merchant = await createMerchant();
    const open = await awaitingOtp(merchant);
    const done = await awaitingOtp(merchant);
    const db = await getDb();
    await submitPaymentOtp(db, { paymentId: done.paymentId, token: done.token, code: "123456" });
    await advanceClock(api, merchant, 30 * 60 + 31);
    expect((await getHostedPayment(db, { paymentId: open.paymentId, token: open.token }))?.expired).toBe(true);
    expect((await getHostedPayment(db, { paymentId: done.paymentId, token: done.token }))?.expired).toBe(false);
  });
});
