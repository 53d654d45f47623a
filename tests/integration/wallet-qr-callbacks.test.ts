import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runAudit } from "@/lib/audit/run-audit";
import { getDb } from "@/lib/db/client";
import { walletQrRequests } from "@/simulators/wallet/wallet-tables";
import { lockPayment } from "@/lib/db/payment-record";
import { failAsExpired } from "@/lib/payments/core/expire-payment";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { expireOpenPayments } from "@/lib/payments/operations/expire-payments";
import { QR_CALLBACK_PATH } from "@/lib/payment-methods/wallet/wallet-qr";
import { connectedWallet, installWalletTransport, walletSecret } from "@/lib/wallet-connection/wallet-connection";
import { signWalletRequest, type QrRequestBody } from "@/lib/providers/wallet/wallet-protocol";
import { installWalletCallbackDelivery } from "@/simulators/wallet/in-gateway-wallet";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paymentRow,
  proceed,
  reconcileOperationsLater,
  serverHeaders,
  serviceIdOf,
  walletLedger,
  type IntentOverrides,
} from "../support/payments";

// The client's own time limit, short so a wallet that never answers ends the call quickly.
vi.hoisted(() => {
  process.env.WALLET_PROVIDER_TIMEOUT_MS = "300";
});

const gateway = useTestGateway();
const { api } = gateway;
beforeAll(() => {
  installWalletTransport(null);
  installWalletCallbackDelivery(null);
});
afterEach(() => {
  installWalletTransport(null);
  installWalletCallbackDelivery(null);
});

const PAST_GRACE = 30 * 60 + 31;
const notified = async (paymentId: string) =>
  (await notificationsOf(paymentId)).map((n) => [n.type, n.data.remoteStatusCode]);

/** Every payment these tests made, for the audit at the end. */
const paymentsSeen: string[] = [];

/** A QR_CODE intent proceeded with WALLET_V2 by the merchant's server, waiting for the wallet app. */
async function qrPayment(merchant: OnboardedMerchant, overrides: IntentOverrides = {}) {
  const intent = await createIntent(api, merchant, { transactionType: "QR_CODE", ...overrides });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
  expect(proceeded.status).toBe(200);
  paymentsSeen.push(intent.paymentId);
  const qrRequestId = (await paymentRow(intent.paymentId)).providerTransactionId!;
  return { ...intent, qrRequestId };
}

/** The customer answers in the wallet app, at the wallet itself: only the wallet's callback tells the gateway. */
async function answerAtWallet(qrRequestId: string, outcome: "approve" | "decline"): Promise<QrRequestBody> {
  return (await connectedWallet()).answerQrInSandbox(qrRequestId, outcome);
}

/**
 * Callbacks the wallet sends while installed are kept, and none reaches the gateway (503, as a gateway that is
 * down).
 */
function loseCallbacks() {
  const lost: Request[] = [];
  installWalletCallbackDelivery(async (request) => {
    lost.push(request.clone());
    return new Response(null, { status: 503 });
  });
  return lost;
}

function postCallback(body: string, headers: Record<string, string>) {
  return fetch(`${gateway.baseUrl}${QR_CALLBACK_PATH}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body,
  });
}

describe("the wallet's QR callback", () => {
  it("settles the approval it reports: 2, debited once, one notification; check shows the approval code", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId, body } = await qrPayment(merchant, { amount: 40 });
    const qr = await answerAtWallet(qrRequestId, "approve");

    expect(await paymentRow(paymentId)).toMatchObject({ state: "SUCCEEDED", approvalCode: qr.approvalCode });
    expect((await check(api, paymentId, serverHeaders(merchant))).body.data).toMatchObject({
      statusCode: 2,
      approvalCode: qr.approvalCode,
    });
    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 4000);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("a duplicate callback changes nothing: one notification, one debit", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId, body } = await qrPayment(merchant, { amount: 25 });
    const sent: Request[] = [];
    installWalletCallbackDelivery(async (request, deliver) => {
      sent.push(request.clone());
      return deliver(request);
    });
    await answerAtWallet(qrRequestId, "approve");
    expect(sent).toHaveLength(1);
    const original = sent[0]!;
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, original.headers.get(name)!]),
    );

    // The wallet retrying the same signed message, over HTTP to the gateway's route.
    const repeated = await postCallback(await original.text(), headers);
    expect(repeated.status).toBe(204);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "SUCCEEDED" });
    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 2500);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("refuses a forged or altered callback (401) and nothing changes", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId } = await qrPayment(merchant);
    const lost = loseCallbacks();
    await answerAtWallet(qrRequestId, "decline");
    const genuine = lost[0]!;
    const body = await genuine.text();
    const genuineHeaders = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, genuine.headers.get(name)!]),
    );

    const forgedSecret = `whsec_${randomBytes(32).toString("base64")}`;
    const approved = body.replace('"status":"declined"', '"status":"approved"');
    const forged = signWalletRequest(forgedSecret, { method: "POST", pathAndQuery: QR_CALLBACK_PATH, body: approved });
    for (const [sentBody, headers] of [
      [approved, forged],
      [approved, genuineHeaders], // the wallet's signature over another body
      [body, {}], // unsigned
    ] as const) {
      const response = await postCallback(sentBody, headers);
      expect(response.status).toBe(401);
      expect((await response.json()).error.name).toBe("invalid_signature");
    }
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PROCESSING", approvalCode: null });
    expect(await notificationsOf(paymentId)).toEqual([]);
    await reconcileOperationsLater(paymentId); // the genuine answer, for the audit
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "qr_declined" });
  });

  it("answers 404 to a signed callback for a QR request the gateway did not open", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId } = await qrPayment(merchant);
    const lost = loseCallbacks();
    await answerAtWallet(qrRequestId, "approve");
    const event = JSON.parse(await lost[0]!.text());
    const other = JSON.stringify({
      ...event,
      data: { ...event.data, qrRequestId: "00000000-0000-4000-8000-000000000000" },
    });
    const headers = signWalletRequest(await walletSecret(), {
      method: "POST",
      pathAndQuery: QR_CALLBACK_PATH,
      body: other,
    });
    expect((await postCallback(other, headers)).status).toBe(404);
    await reconcileOperationsLater(paymentId); // the real answer, for the audit
  });
});

describe("a lost QR callback", () => {
  it("reconciliation asks the wallet and settles the approval exactly once", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId, body } = await qrPayment(merchant, { amount: 60 });
    const lost = loseCallbacks();
    await answerAtWallet(qrRequestId, "approve");
    expect(lost).toHaveLength(1);
    expect((await check(api, paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(1);

    expect(await reconcileOperationsLater(paymentId)).toBeGreaterThanOrEqual(1);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "SUCCEEDED", approvalCode: expect.any(String) });
    await reconcileOperationsLater(paymentId);
    // The wallet's retry arriving at last changes nothing.
    installWalletCallbackDelivery(null);
    const late = lost[0]!;
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, late.headers.get(name)!]),
    );
    expect((await postCallback(await late.text(), headers)).status).toBe(204);

    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 6000);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("reconciliation settles a lost decline and a lost RESERVATION approval the same way", async () => {
    const merchant = await createMerchant();
    const declined = await qrPayment(merchant);
    const reserved = await qrPayment(merchant, { captureMethod: "RESERVATION", amount: 30 });
    loseCallbacks();
    await answerAtWallet(declined.qrRequestId, "decline");
    await answerAtWallet(reserved.qrRequestId, "approve");
    await reconcileOperationsLater(declined.paymentId, reserved.paymentId);

    expect(await paymentRow(declined.paymentId)).toMatchObject({ state: "FAILED", failureReason: "qr_declined" });
    expect(await paymentRow(reserved.paymentId)).toMatchObject({ state: "PRE_AUTHORIZED" });
    expect(await notified(declined.paymentId)).toEqual([["payment.failed", 3]]);
    expect(await notified(reserved.paymentId)).toEqual([["payment.pre_authorized", 13]]);
  });

  it("an approval whose callback was lost stands at the sweep past grace: withdrawing finds the answer", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId, body } = await qrPayment(merchant, { amount: 15 });
    loseCallbacks();
    await answerAtWallet(qrRequestId, "approve");
    await advanceClock(api, merchant, PAST_GRACE);
    await expireOpenPayments(await getDb(), { serviceId: await serviceIdOf(merchant) });

    expect(await paymentRow(paymentId)).toMatchObject({ state: "SUCCEEDED" });
    expect((await walletLedger(merchant, body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 1500);
    expect(await notified(paymentId)).toEqual([["payment.succeeded", 2]]);
  });

  it("a sweep not reaching the wallet leaves the payment waiting; reconciliation withdraws, expires it", async () => {
    const merchant = await createMerchant();
    const { paymentId, qrRequestId, body } = await qrPayment(merchant);
    await advanceClock(api, merchant, PAST_GRACE);
    installWalletTransport(async (request, next) =>
      new URL(request.url).pathname.includes("/qr-requests/")
        ? Promise.reject(new Error("connection reset"))
        : next(request),
    );
    await expireOpenPayments(await getDb(), { serviceId: await serviceIdOf(merchant) });
    expect((await paymentRow(paymentId)).state).toBe("PROCESSING");

    installWalletTransport(null);
    await reconcileOperationsLater(paymentId);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    expect(await (await connectedWallet()).qrRequest(qrRequestId)).toMatchObject({ status: "canceled" });
    // Too late for the customer: the wallet refuses the answer, nothing moves.
    await expect(answerAtWallet(qrRequestId, "approve")).rejects.toMatchObject({ errorName: "qr_request_answered" });
    expect((await walletLedger(merchant, body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
    expect(await notified(paymentId)).toEqual([["payment.failed", 3]]);
  });
});

describe("a QR request opened for a proceed the transaction refused", () => {
  it("is withdrawn at the wallet, so the customer can never pay a payment the gateway did not take", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    paymentsSeen.push(intent.paymentId);
    // The expiry (another request's) gets the payment between the wallet opening the request and the proceed's
    // transaction.
    installWalletTransport(async (request, next) => {
      const answer = await next(request);
      if (request.method === "POST" && new URL(request.url).pathname.endsWith("/v1/qr-requests")) {
        await (
          await getDb()
        ).transaction(async (tx) =>
          failAsExpired(tx, { payment: (await lockPayment(tx, intent.paymentId))!, now: new Date() }),
        );
      }
      return answer;
    });
    try {
      expect((await proceed(api, intent.paymentId, serverHeaders(merchant))).status).toBe(410);
    } finally {
      installWalletTransport(null);
    }

    const [opened] = await (
      await getDb()
    )
      .select()
      .from(walletQrRequests)
      .where(eq(walletQrRequests.paymentId, intent.paymentId));
    expect(opened).toMatchObject({ status: "canceled" });
    await expect(answerAtWallet(opened!.id, "approve")).rejects.toMatchObject({ errorName: "qr_request_answered" });
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
  });

  it("is never opened for an intent already past its grace", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    paymentsSeen.push(intent.paymentId);
    await advanceClock(api, merchant, PAST_GRACE);
    expect((await proceed(api, intent.paymentId, serverHeaders(merchant))).status).toBe(410);
    expect(
      await (await getDb()).select().from(walletQrRequests).where(eq(walletQrRequests.paymentId, intent.paymentId)),
    ).toEqual([]);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
  });
});

describe("the books after every QR callback case above", () => {
  it("passes the audit: these payments, wallet books, notifications and provider operations agree", async () => {
    const db = await getDb();
    const report = await runAudit(db, {
      retrySchedule: [5, 300],
      deliverySlackSeconds: 60,
      reconciliationBoundSeconds: 900,
    });
    const ours = new Set(paymentsSeen);
    // The suite's database is shared with other files: only this file's payments are judged here.
    const violations = report.results.flatMap((result) =>
      (result.violations ?? [])
        .filter((violation) => ours.has(violation.subject))
        .map((violation) => `${result.name}: ${violation.detail}`),
    );
    expect(paymentsSeen.length).toBeGreaterThan(5);
    expect(violations).toEqual([]);
  });
});
