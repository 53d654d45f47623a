import { describe, expect, it } from "vitest";
import { pageTokenFor } from "@/lib/auth/client-secret";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb, onQuery } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { expireOpenPayments } from "@/lib/payments/operations/expire-payments";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { inProduction } from "../support/production-config";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  browserHeaders,
  capture,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paymentRow,
  proceed,
  serverHeaders,
  serviceIdOf,
  walletLedger,
  type IntentOverrides,
} from "../support/payments";

const { api } = useTestGateway();

const PAST_GRACE = 30 * 60 + 31;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A QR_CODE intent proceeded with WALLET_V2 by the merchant's server (asserts the 200). */
async function qrPayment(
  merchant: OnboardedMerchant,
  overrides: IntentOverrides = {},
  headers: Record<string, string> = {},
) {
  const intent = await createIntent(api, merchant, { transactionType: "QR_CODE", ...overrides });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant, headers));
  if (proceeded.status !== 200)
    throw new Error(`QR proceed failed: ${proceeded.status} ${JSON.stringify(proceeded.body)}`);
  return { ...intent, proceeded: proceeded.body.data };
}

function answer(
  merchant: OnboardedMerchant,
  paymentId: string,
  outcome: unknown,
  headers: Record<string, string> = clientAuth(merchant),
) {
  return api.post(`/api/v1/sandbox/payments/${paymentId}/qr`, { outcome }, headers);
}

const notified = async (paymentId: string) =>
  (await notificationsOf(paymentId)).map((n) => [n.type, n.data.remoteStatusCode]);

describe("POST /payments/intents/:id/proceed on a QR_CODE intent with WALLET_V2", () => {
  it("answers require3DS false, no statusCode, empty payUrl, the gateway's QR image and hosted QR page", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant, { "x-locale": "fr_FR" }));

    expect(response.status).toBe(200);
    const token = pageTokenFor(await getGatewayKey(await getDb()), "hosted", intent.paymentId);
    const base = process.env.PUBLIC_BASE_URL;
    expect(response.body).toEqual({
      code: 200,
      status: "success",
      message: "Awaiting confirmation in the wallet app",
      data: {
        require3DS: false,
        status: "Awaiting confirmation in the wallet app",
        metadata: {
          payUrl: "",
          qrImageUrl: `${base}/api/v1/qr/${intent.paymentId}/image?token=${token}`,
          qrPageUrl: `${base}/fr/pay/qr/${intent.paymentId}?token=${token}`,
        },
      },
    });
    expect(response.body.data).not.toHaveProperty("statusCode");
    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "PROCESSING",
      paymentMethodCode: "WALLET_V2",
      locale: "fr",
    });
    // Nothing is taken before the customer answers, and the merchant is told nothing yet.
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
    expect(await notificationsOf(intent.paymentId)).toEqual([]);
  });

  it("gives the QR page URL no locale without x-locale, so the page follows the buyer's browser", async () => {
    const merchant = await createMerchant();
    const { paymentId, proceeded } = await qrPayment(merchant);
    expect(new URL(proceeded.metadata.qrPageUrl).pathname).toBe(`/pay/qr/${paymentId}`);
  });

  it("waits for the wallet app in all auth modes: a customer proceeding in person isn't charged at once", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const asCustomer = await createIntent(api, merchant, { transactionType: "QR_CODE", userId: customer.phone });
    const byCustomer = await proceed(
      api,
      asCustomer.paymentId,
      userAuth(merchant, accessToken, { "x-platform": "ANDROID" }),
    );
    const asBrowser = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const byBrowser = await proceed(api, asBrowser.paymentId, browserHeaders(merchant, asBrowser.clientSecret));

    for (const response of [byCustomer, byBrowser]) {
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ require3DS: false, metadata: { payUrl: "" } });
      expect(response.body.data).not.toHaveProperty("statusCode");
      expect(response.body.data.metadata.qrImageUrl).toMatch(/\/api\/v1\/qr\/.+\/image\?token=/);
    }
    expect((await paymentRow(asCustomer.paymentId)).state).toBe("PROCESSING");
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
  });

  it("rejects at proceed a QR payment the wallet cannot cover: 200 with statusCode 3 and no QR", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE", amount: 10_000.01 });
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      require3DS: false,
      statusCode: 3,
      status: "Insufficient wallet balance",
      metadata: { payUrl: "" },
    });
    expect((await paymentRow(intent.paymentId)).failureReason).toBe("insufficient_funds");
    expect(await notified(intent.paymentId)).toEqual([["payment.failed", 3]]);
  });

  it("refuses to proceed a waiting QR payment again (invalid_state)", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await qrPayment(merchant);
    const again = await proceed(api, paymentId, serverHeaders(merchant));
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");
    expect(again.body.message).toMatch(/PROCESSING/);
  });
});

describe("GET /payments/intents/:id/check on a QR payment", () => {
  it("reports 1 waiting: endUserMessage in en/fr/ar, wallet order and transaction ids, no approval code", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await qrPayment(merchant, { amount: 2500 });
    const response = await check(api, paymentId, serverHeaders(merchant));

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      statusCode: 1,
      paymentMethodName: "WALLET_V2",
      amount: 2500,
      currencyCode: "DZD",
      endUserMessage: {
        en: "Scan the QR code and confirm the payment in your wallet app.",
        fr: "Scannez le code QR et confirmez le paiement dans votre application de portefeuille.",
        ar: "امسح رمز QR وأكّد عملية الدفع في تطبيق محفظتك.",
      },
      lastUpdate: expect.any(String),
      paymentOrderId: expect.stringMatching(/^qr_order_[0-9A-Z]{26}$/),
      microServiceTransactionId: expect.stringMatching(UUID),
      approvalCode: null,
    });
    // The browser (merchant_auth) is told the same.
    const fromBrowser = await check(api, paymentId, browserHeaders(merchant, clientSecret));
    expect(fromBrowser.body.data).toEqual(response.body.data);
  });

  it("costs at most 2 statements (auth included) like every check, before and after the answer", async () => {
    const merchant = await createMerchant();
    const { paymentId, clientSecret } = await qrPayment(merchant);
    await check(api, paymentId, serverHeaders(merchant)); // warm: gateway key, prepared statements
    const statements = async (headers: Record<string, string>) => {
      let count = 0;
      const stop = onQuery(() => {
        count += 1;
      });
      try {
        expect((await check(api, paymentId, headers)).status).toBe(200);
      } finally {
        stop();
      }
      return count;
    };
    expect(await statements(serverHeaders(merchant))).toBeLessThanOrEqual(2);
    expect(await statements(browserHeaders(merchant, clientSecret))).toBeLessThanOrEqual(2);
    await answer(merchant, paymentId, "approve");
    expect(await statements(serverHeaders(merchant))).toBeLessThanOrEqual(2);
  });

  it("reports 1 for a QR intent not proceeded yet, in three languages and without wallet ids", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const response = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(response.body.data).toMatchObject({
      statusCode: 1,
      endUserMessage: { en: "Your payment is being processed." },
    });
    expect(Object.keys(response.body.data.endUserMessage).sort()).toEqual(["ar", "en", "fr"]);
    expect(response.body.data).not.toHaveProperty("paymentOrderId");
  });

  it("keeps endUserMessage a plain string and adds no QR fields for other intents", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await proceed(api, intent.paymentId, serverHeaders(merchant));
    const response = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(typeof response.body.data.endUserMessage).toBe("string");
    expect(response.body.data).not.toHaveProperty("approvalCode");
  });
});

describe("POST /api/v1/sandbox/payments/:id/qr (the wallet app's answer)", () => {
  it("approve: 2, debited once in that change, one payment.succeeded; check: 2, a stable approval code", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant, { amount: 1234.56 });
    const waiting = (await check(api, paymentId, serverHeaders(merchant))).body.data;

    const response = await answer(merchant, paymentId, "approve");
    expect(response.status).toBe(200);
    expect(response.body.message).toBe("QR payment approved in the sandbox wallet.");
    expect(response.body.data).toMatchObject({
      statusCode: 2,
      approvalCode: expect.stringMatching(/^[2-9A-HJ-NP-Z]{6}$/),
    });

    const checked = (await check(api, paymentId, serverHeaders(merchant))).body.data;
    expect(checked).toMatchObject({
      statusCode: 2,
      amount: 1234.56,
      endUserMessage: {
        en: "Your payment was successful.",
        fr: "Votre paiement a été effectué avec succès.",
        ar: "تمت عملية الدفع بنجاح.",
      },
      paymentOrderId: waiting.paymentOrderId,
      microServiceTransactionId: waiting.microServiceTransactionId,
      approvalCode: response.body.data.approvalCode,
    });
    expect((await check(api, paymentId, serverHeaders(merchant))).body.data.approvalCode).toBe(checked.approvalCode);
    expect(await walletLedger(merchant, body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - 123456,
      ledgerBalanceMinor: OPENING_DZD - 123456,
      heldMinor: 0,
    });
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
    const [notification] = await notificationsOf(paymentId);
    expect(notification!.data).toMatchObject({ paymentId, statusCode: 2, amount: 1234.56, currency: "DZD" });
  });

  it("decline: 3 with the declined message in three languages, no money moved, one payment.failed", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant);
    const response = await answer(merchant, paymentId, "decline");
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ statusCode: 3, approvalCode: null });

    const checked = (await check(api, paymentId, serverHeaders(merchant))).body.data;
    expect(checked).toMatchObject({
      statusCode: 3,
      endUserMessage: {
        en: "You declined the payment in your wallet app.",
        fr: "Vous avez refusé le paiement dans votre application de portefeuille.",
        ar: "لقد رفضت عملية الدفع في تطبيق محفظتك.",
      },
      approvalCode: null,
    });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "qr_declined" });
    expect((await walletLedger(merchant, body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
    expect(await notified(paymentId)).toEqual([["payment.failed", 3]]);
  });

  it("approving a RESERVATION pre-authorizes it (13) with a hold the merchant then captures", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant, { captureMethod: "RESERVATION", amount: 300 });
    const response = await answer(merchant, paymentId, "approve");
    expect(response.body.data).toMatchObject({ statusCode: 13, approvalCode: expect.any(String) });
    expect(await walletLedger(merchant, body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      heldMinor: 30000,
    });

    const captured = await capture(api, merchant, paymentId, { amount: 200 });
    expect(captured.body.data).toMatchObject({ statusCode: 2 });
    expect(await walletLedger(merchant, body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - 20000,
      heldMinor: 0,
    });
    expect(await notified(paymentId)).toEqual([
      ["payment.pre_authorized", 13],
      ["payment.captured", 2],
    ]);
  });

  it("fails an approval the balance no longer covers: 3, insufficient funds, no approval code or debit", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const { paymentId } = await qrPayment(merchant, { userId: customer.phone, amount: 7000 });
    // Meanwhile the customer pays 5,000 elsewhere, leaving less than the QR payment needs.
    const other = await createIntent(api, merchant, { userId: customer.phone, amount: 5000 });
    expect(
      (await proceed(api, other.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }))).body.data
        .statusCode,
    ).toBe(2);

    const response = await answer(merchant, paymentId, "approve");
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ statusCode: 3, approvalCode: null });
    const checked = (await check(api, paymentId, serverHeaders(merchant))).body.data;
    expect(checked.endUserMessage.en).toBe("Your wallet balance is insufficient for this payment.");
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "insufficient_funds" });
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 500000);
    expect(await notified(paymentId)).toEqual([["payment.failed", 3]]);
  });

  it("refuses a second answer (invalid_state) and never moves money twice", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant, { amount: 100 });
    expect((await answer(merchant, paymentId, "approve")).status).toBe(200);
    for (const outcome of ["approve", "decline"]) {
      const again = await answer(merchant, paymentId, outcome);
      expect(again.status).toBe(409);
      expect(again.body.error.name).toBe("invalid_state");
    }
    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 10000);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("lets exactly one of two simultaneous approvals run", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant, { amount: 100 });
    const responses = await Promise.all([
      answer(merchant, paymentId, "approve"),
      answer(merchant, paymentId, "approve"),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 10000);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("answers only the caller's payments (404), under client_auth, only QR payments awaiting an answer", async () => {
    const merchant = await createMerchant();
    const stranger = await createMerchant();
    const { paymentId, clientSecret } = await qrPayment(merchant);

    const foreign = await answer(stranger, paymentId, "approve");
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.name).toBe("not_found");
    expect((await answer(merchant, "00000000-0000-4000-8000-000000000000", "approve")).status).toBe(404);
    expect((await answer(merchant, paymentId, "approve", browserHeaders(merchant, clientSecret))).status).toBe(401);
    const invalid = await answer(merchant, paymentId, "maybe");
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([{ path: "outcome", message: "must be approve or decline" }]);

    const notProceeded = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const otp = await createIntent(api, merchant);
    await proceed(api, otp.paymentId, serverHeaders(merchant));
    for (const id of [notProceeded.paymentId, otp.paymentId]) {
      const refused = await answer(merchant, id, "approve");
      expect(refused.status).toBe(409);
      expect(refused.body.error.name).toBe("invalid_state");
    }
    expect((await paymentRow(paymentId)).state).toBe("PROCESSING");
    expect((await paymentRow(otp.paymentId)).state).toBe("REQUIRES_ACTION");
  });

  it("does not exist in production (404 not_found, whatever the credential)", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await qrPayment(merchant);
    await inProduction(async () => {
      for (const headers of [clientAuth(merchant), {}]) {
        const response = await answer(merchant, paymentId, "approve", headers);
        expect(response.status).toBe(404);
        expect(response.body.error.name).toBe("not_found");
      }
    });
    expect((await paymentRow(paymentId)).state).toBe("PROCESSING");
  });
});

describe("QR payments and the 30-minute lifetime", () => {
  it("the sweep fails an unattended QR payment past grace: 3, expired, notified, no longer approvable", async () => {
    const merchant = await createMerchant();
    const { paymentId, body } = await qrPayment(merchant);
    await advanceClock(api, merchant, PAST_GRACE);
    expect(await expireOpenPayments(await getDb(), { serviceId: await serviceIdOf(merchant) })).toBe(1);

    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    const checked = (await check(api, paymentId, serverHeaders(merchant))).body.data;
    expect(checked).toMatchObject({
      statusCode: 3,
      endUserMessage: { en: "The payment expired before it was completed." },
      approvalCode: null,
    });
    expect(await notified(paymentId)).toEqual([["payment.failed", 3]]);
    const late = await answer(merchant, paymentId, "approve");
    expect(late.status).toBe(410);
    expect(late.body.error.name).toBe("intent_expired");
    expect((await walletLedger(merchant, body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
  });

  it("an approval past the grace, before any sweep, fails the payment as expired and answers 410", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await qrPayment(merchant);
    await advanceClock(api, merchant, PAST_GRACE);
    const late = await answer(merchant, paymentId, "approve");
    expect(late.status).toBe(410);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    expect(await notified(paymentId)).toEqual([["payment.failed", 3]]);
  });

  it("accepts an approval within the 30 s grace after expiresAt", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await qrPayment(merchant);
    await advanceClock(api, merchant, 30 * 60 + 10);
    expect((await answer(merchant, paymentId, "approve")).body.data.statusCode).toBe(2);
  });
});
