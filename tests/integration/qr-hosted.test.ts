import { describe, expect, it } from "vitest";
import { pageTokenFor } from "@/lib/auth/client-secret";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { answerQrPayment } from "@/lib/payment-methods/wallet/answer-qr-payment";
import { getQrPage } from "@/lib/hosted/views/qr-page-view";
import { getWalletAppPayment } from "@/lib/payment-methods/wallet/hosted/get-wallet-app-payment";
import { qrPng } from "@/lib/qr-code/qr-png";
import { sandboxWalletAppUrl } from "@/lib/wallet-connection/wallet-app-token";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
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
  serverHeaders,
  tokenOf,
  walletLedger,
  type IntentOverrides,
} from "../support/payments";

const gateway = useTestGateway();
const { api } = gateway;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function qrPayment(merchant: OnboardedMerchant, overrides: IntentOverrides = {}) {
  const intent = await createIntent(api, merchant, { transactionType: "QR_CODE", ...overrides });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
  const { qrImageUrl, qrPageUrl } = proceeded.body.data.metadata as { qrImageUrl: string; qrPageUrl: string };
  const walletToken = pageTokenFor(await getGatewayKey(await getDb()), "wallet-app", intent.paymentId);
  return { ...intent, qrImageUrl, qrPageUrl, token: tokenOf(qrPageUrl), walletToken };
}

/** A URL of the gateway as a path the in-process test server answers. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function fetchImage(path: string) {
  const response = await fetch(`${gateway.baseUrl}${path}`);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("GET /api/v1/qr/:id/image (metadata.qrImageUrl)", () => {
  it("serves a PNG that encodes the sandbox wallet app's link for the payment, and no cache keeps it", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const image = await fetchImage(pathOf(payment.qrImageUrl));

    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("cache-control")).toContain("no-store");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const walletLink = sandboxWalletAppUrl(await getGatewayKey(await getDb()), payment.paymentId);
    expect(walletLink).toBe(
      `${process.env.PUBLIC_BASE_URL}/sandbox/wallet/${payment.paymentId}?token=${payment.walletToken}`,
    );
    // The renderer is deterministic, so equal bytes mean the image holds exactly that link.
    expect(image.bytes.equals(await qrPng(walletLink))).toBe(true);
  });

  it("answers one JSON 404 to a wrong or borrowed token, an unknown payment, a payment without QR code", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const other = await qrPayment(merchant);
    const notProceeded = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const otp = await createIntent(api, merchant);
    const otpPayUrl = (await proceed(api, otp.paymentId, serverHeaders(merchant))).body.data.metadata.payUrl as string;
    const hostedToken = async (id: string) => pageTokenFor(await getGatewayKey(await getDb()), "hosted", id);

    const attempts = [
      `/api/v1/qr/${payment.paymentId}/image?token=${"0".repeat(64)}`,
      `/api/v1/qr/${payment.paymentId}/image`,
      `/api/v1/qr/${payment.paymentId}/image?token=${other.token}`,
      `/api/v1/qr/${payment.paymentId}/image?token=${payment.walletToken}`,
      `/api/v1/qr/00000000-0000-4000-8000-000000000000/image?token=${payment.token}`,
      `/api/v1/qr/not-a-uuid/image?token=${payment.token}`,
      `/api/v1/qr/${notProceeded.paymentId}/image?token=${await hostedToken(notProceeded.paymentId)}`,
      `/api/v1/qr/${otp.paymentId}/image?token=${tokenOf(otpPayUrl)}`,
    ];
    for (const path of attempts) {
      const response = await api.get(path);
      expect({ path, status: response.status, name: response.body.error?.name }).toEqual({
        path,
        status: 404,
        name: "not_found",
      });
    }
  });
});

describe("GET /api/v1/qr/:id/status (what the QR page polls)", () => {
  it("reports 1 while waiting and the outcome once the wallet app answered", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const statusPath = `/api/v1/qr/${payment.paymentId}/status?token=${payment.token}`;
    const waiting = await api.get(statusPath);
    expect(waiting.status).toBe(200);
    expect(waiting.headers.get("cache-control")).toContain("no-store");
    expect(waiting.body.data).toEqual({ statusCode: 1, state: "PROCESSING", expired: false });

    await answerQrPayment(await getDb(), {
      paymentId: payment.paymentId,
      outcome: "approve",
      access: { walletToken: payment.walletToken },
    });
    expect((await api.get(statusPath)).body.data).toEqual({ statusCode: 2, state: "SUCCEEDED", expired: false });
  });

  it("fails a QR payment found past its grace on the spot, as check does: 3, expired, notified once", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    await advanceClock(api, merchant, 30 * 60 + 31);
    const statusPath = `/api/v1/qr/${payment.paymentId}/status?token=${payment.token}`;
    expect((await api.get(statusPath)).body.data).toEqual({ statusCode: 3, state: "FAILED", expired: true });
    expect((await api.get(statusPath)).body.data).toEqual({ statusCode: 3, state: "FAILED", expired: true });
    expect((await notificationsOf(payment.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("answers 404 for a wrong token or a payment that is not a QR intent", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const otp = await createIntent(api, merchant);
    const otpToken = tokenOf((await proceed(api, otp.paymentId, serverHeaders(merchant))).body.data.metadata.payUrl);
    for (const path of [
      `/api/v1/qr/${payment.paymentId}/status?token=nope`,
      `/api/v1/qr/${payment.paymentId}/status`,
      `/api/v1/qr/${payment.paymentId}/status?token=${payment.walletToken}`,
      `/api/v1/qr/${otp.paymentId}/status?token=${otpToken}`,
    ]) {
      const response = await api.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});

describe("the sandbox wallet app (domain operations of its page)", () => {
  it("shows the customer the merchant, the amount, the available balance and a pending request", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant, { amount: 12.345, actionCurrencyCode: "TND", actionCountryCode: "TUN" });
    const view = await getWalletAppPayment(await getDb(), { paymentId: payment.paymentId, token: payment.walletToken });
    expect(view).toEqual({
      paymentId: payment.paymentId,
      merchantName: merchant.name,
      amount: 12.345,
      currency: "TND",
      captureMethod: "DIRECT",
      state: "PROCESSING",
      expired: false,
      qr: {
        orderId: expect.stringMatching(/^qr_order_/),
        transactionId: expect.any(String),
        status: "pending",
        approvalCode: null,
      },
      availableBalance: 10_000,
    });
  });

  it("opens only with the wallet app's own token: the hosted page token and a wrong one show nothing", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const db = await getDb();
    expect(await getWalletAppPayment(db, { paymentId: payment.paymentId, token: payment.token })).toBeNull();
    expect(await getWalletAppPayment(db, { paymentId: payment.paymentId, token: "x" })).toBeNull();
    const refused = await rejection(
      answerQrPayment(db, { paymentId: payment.paymentId, outcome: "approve", access: { walletToken: payment.token } }),
    );
    expect(refused.errorName).toBe("invalid_credentials");
    expect((await paymentRow(payment.paymentId)).state).toBe("PROCESSING");
  });

  it("approving in the app charges the wallet and records the answer, as the test helper does", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant, { amount: 50 });
    const db = await getDb();
    const { payment: settled, qr } = await answerQrPayment(db, {
      paymentId: payment.paymentId,
      outcome: "approve",
      access: { walletToken: payment.walletToken },
    });
    expect(settled.state).toBe("SUCCEEDED");
    expect(qr).toMatchObject({ status: "approved", approvalCode: expect.stringMatching(/^[2-9A-HJ-NP-Z]{6}$/) });
    const view = await getWalletAppPayment(db, { paymentId: payment.paymentId, token: payment.walletToken });
    expect(view).toMatchObject({
      state: "SUCCEEDED",
      availableBalance: 9_950,
      qr: { status: "approved", approvalCode: qr!.approvalCode },
    });
    expect((await check(api, payment.paymentId, serverHeaders(merchant))).body.data.approvalCode).toBe(
      qr!.approvalCode,
    );
    expect((await walletLedger(merchant, payment.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 5000);
  });

  it("declining in the app fails the payment and records the refusal", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const { payment: declined, qr } = await answerQrPayment(await getDb(), {
      paymentId: payment.paymentId,
      outcome: "decline",
      access: { walletToken: payment.walletToken },
    });
    expect(declined).toMatchObject({ state: "FAILED", failureReason: "qr_declined" });
    expect(qr).toMatchObject({ status: "declined", approvalCode: null });
  });

  it("the hosted QR page gets the wallet app's token in the sandbox, for testers without a phone", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    const db = await getDb();
    const page = await getQrPage(db, { paymentId: payment.paymentId, token: payment.token });
    expect(page).toMatchObject({
      payment: { state: "PROCESSING", transactionType: "QR_CODE" },
      walletAppToken: payment.walletToken,
    });
    expect(await getQrPage(db, { paymentId: payment.paymentId, token: payment.walletToken })).toBeNull();
    // A payment that is not a QR intent offers no wallet link.
    const otp = await createIntent(api, merchant);
    const otpToken = tokenOf((await proceed(api, otp.paymentId, serverHeaders(merchant))).body.data.metadata.payUrl);
    expect((await getQrPage(db, { paymentId: otp.paymentId, token: otpToken }))?.walletAppToken).toBeNull();
  });
});

describe("the page token scheme", () => {
  it("the QR image and page share the hosted token of the OTP and card pages; the wallet app's differs", async () => {
    const merchant = await createMerchant();
    const payment = await qrPayment(merchant);
    expect(tokenOf(payment.qrImageUrl)).toBe(payment.token);
    expect(payment.walletToken).not.toBe(payment.token);
    expect(
      (await api.get(`/api/v1/qr/${payment.paymentId}/status?token=${payment.token}`, clientAuth(merchant))).status,
    ).toBe(200);
  });
});
