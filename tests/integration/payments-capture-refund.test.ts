import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, paymentRefunds } from "@/lib/db/schema";
import { merchantAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  capture,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paidIntent,
  paymentRow,
  proceed,
  refund,
  release,
  serverHeaders,
  walletLedger,
} from "../support/payments";

const { api } = useTestGateway();

/** The payment's captures and refunds as rows, summed: the cached columns must agree with them. */
async function rowSums(paymentId: string) {
  const db = await getDb();
  const [captured] = await db
    .select({ total: sql<string>`coalesce(sum(${paymentCaptures.amountMinor}), 0)` })
    .from(paymentCaptures)
    .where(eq(paymentCaptures.paymentId, paymentId));
  const [refunded] = await db
    .select({ total: sql<string>`coalesce(sum(${paymentRefunds.amountMinor}), 0)` })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, paymentId));
  const row = await paymentRow(paymentId);
  return {
    captured: Number(captured!.total),
    refunded: Number(refunded!.total),
    capturedColumn: row.capturedMinor,
    refundedColumn: row.refundedMinor,
  };
}

describe("POST /payments/intents/:id/capture", () => {
  it("captures the whole reservation when amount is omitted: 2, debited, notified", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 500 });
    const response = await capture(api, merchant, intent.paymentId);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      status: "success",
      data: { status: "Captured", statusCode: 2, metaData: { payUrl: "" } },
    });
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toEqual({
      balanceMinor: OPENING_DZD - 50000,
      heldMinor: 0,
      availableMinor: OPENING_DZD - 50000,
      ledgerBalanceMinor: OPENING_DZD - 50000,
      ledgerHeldMinor: 0,
    });
    const sent = await notificationsOf(intent.paymentId);
    expect(sent.map((n) => n.type)).toEqual(["payment.pre_authorized", "payment.captured"]);
    expect(sent[1]!.data).toMatchObject({ remoteStatusCode: 2, statusCode: 2, amount: 500, capturedAmount: 500 });
    expect(await rowSums(intent.paymentId)).toEqual({
      captured: 50000,
      refunded: 0,
      capturedColumn: 50000,
      refundedColumn: 0,
    });
  });

  it("captures part of the reservation and returns the rest to the wallet at once", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 500 });
    const response = await capture(api, merchant, intent.paymentId, { amount: 123.45 });
    expect(response.body.data.statusCode).toBe(2);
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - 12345,
      heldMinor: 0,
      ledgerBalanceMinor: OPENING_DZD - 12345,
      ledgerHeldMinor: 0,
    });
    const checked = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ statusCode: 2, amount: 123.45 });
    const [captureRow] = await (
      await getDb()
    )
      .select()
      .from(paymentCaptures)
      .where(eq(paymentCaptures.paymentId, intent.paymentId));
    expect(captureRow).toMatchObject({ amountMinor: 12345, releasedMinor: 37655 });
    expect((await notificationsOf(intent.paymentId))[1]!.data).toMatchObject({ capturedAmount: 123.45, amount: 500 });
  });

  it("refuses a capture above the reserved amount with 400 amount_exceeds_reserved", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 500 });
    const response = await capture(api, merchant, intent.paymentId, { amount: 500.01 });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("amount_exceeds_reserved");
    expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.heldMinor).toBe(50000);
  });

  it("refuses a capture amount with more decimals than the currency as a validation_error", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 500 });
    const response = await capture(api, merchant, intent.paymentId, { amount: 1.001 });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "amount" }] });
  });

  it("refuses a second capture with invalid_state and moves no money", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 500 });
    await capture(api, merchant, intent.paymentId, { amount: 100 });
    const again = await capture(api, merchant, intent.paymentId, { amount: 100 });
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 10000);
  });

  it.each(["CREATED", "REQUIRES_ACTION", "SUCCEEDED (DIRECT)", "FAILED", "CANCELED"])(
    "refuses to capture a %s payment with invalid_state",
    async (label) => {
      const merchant = await createMerchant();
      let paymentId: string;
      if (label === "CREATED") paymentId = (await createIntent(api, merchant)).paymentId;
      else if (label === "REQUIRES_ACTION") {
        paymentId = (await createIntent(api, merchant, { captureMethod: "RESERVATION" })).paymentId;
        await proceed(api, paymentId, serverHeaders(merchant));
      } else if (label === "FAILED") {
        paymentId = (await createIntent(api, merchant, { captureMethod: "RESERVATION", amount: 20_000 })).paymentId;
        await proceed(api, paymentId, serverHeaders(merchant));
      } else if (label === "CANCELED") {
        paymentId = (await paidIntent(api, merchant, { captureMethod: "RESERVATION" })).paymentId;
        await release(api, merchant, paymentId);
      } else paymentId = (await paidIntent(api, merchant)).paymentId;
      const response = await capture(api, merchant, paymentId);
      expect(response.status).toBe(409);
      expect(response.body.error.name).toBe("invalid_state");
    },
  );
});

describe("POST /payments/intents/:id/release", () => {
  it("releases the whole reservation: Reversed, 10, funds back, notified", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 800 });
    const response = await release(api, merchant, intent.paymentId);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ status: "Reversed", statusCode: 10, metaData: { payUrl: "" } });
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      heldMinor: 0,
      ledgerBalanceMinor: OPENING_DZD,
      ledgerHeldMinor: 0,
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(10);
    const sent = await notificationsOf(intent.paymentId);
    expect(sent.map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.pre_authorized", 13],
      ["payment.released", 10],
    ]);
  });

  it("refuses a second release, and release of a captured or DIRECT payment, with invalid_state", async () => {
    const merchant = await createMerchant();
    const released = await paidIntent(api, merchant, { captureMethod: "RESERVATION" });
    await release(api, merchant, released.paymentId);
    const captured = await paidIntent(api, merchant, { captureMethod: "RESERVATION" });
    await capture(api, merchant, captured.paymentId);
    const direct = await paidIntent(api, merchant);
    for (const paymentId of [released.paymentId, captured.paymentId, direct.paymentId]) {
      const response = await release(api, merchant, paymentId);
      expect(response.status).toBe(409);
      expect(response.body.error.name).toBe("invalid_state");
    }
  });
});

describe("POST /payments/:paymentId/refund", () => {
  it("refunds the whole payment when amount is omitted: 4, REFUNDED, wallet credited", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 1200 });
    const response = await refund(api, merchant, intent.paymentId, {
      description: "Order cancelled",
      reason: "cancel",
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toEqual(expect.any(String));
    expect(response.body.data).toEqual({
      statusCode: 4,
      status: "Refunded",
      refundedAmount: 1200,
      totalRefundedAmount: 1200,
      transactionAmount: 1200,
      remainingRefundableAmount: 0,
      microServiceTransactionId: expect.any(String),
      errorMessage: { internalErrorMessage: null, providerErrorMessage: null },
    });
    expect((await paymentRow(intent.paymentId)).state).toBe("REFUNDED");
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(4);
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      ledgerBalanceMinor: OPENING_DZD,
    });
    const refunded = (await notificationsOf(intent.paymentId)).at(-1)!;
    expect(refunded).toMatchObject({
      type: "payment.refunded",
      data: { remoteStatusCode: 4, statusCode: 4, refundedAmount: 1200 },
    });
  });

  it("refunds in several parts: PARTIALLY_REFUNDED (16) until the last part makes it REFUNDED", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 100 });
    const first = await refund(api, merchant, intent.paymentId, { description: "part 1", amount: 30 });
    expect(first.body.data).toMatchObject({
      statusCode: 4,
      status: "Partially refunded",
      refundedAmount: 30,
      totalRefundedAmount: 30,
      transactionAmount: 100,
      remainingRefundableAmount: 70,
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(16);
    const second = await refund(api, merchant, intent.paymentId, { description: "part 2", amount: 45.5 });
    expect(second.body.data).toMatchObject({ totalRefundedAmount: 75.5, remainingRefundableAmount: 24.5 });
    const last = await refund(api, merchant, intent.paymentId, { description: "rest" });
    expect(last.body.data).toMatchObject({
      status: "Refunded",
      refundedAmount: 24.5,
      totalRefundedAmount: 100,
      remainingRefundableAmount: 0,
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(4);
    const sent = (await notificationsOf(intent.paymentId)).filter((n) => n.type === "payment.refunded");
    expect(sent.map((n) => [n.data.statusCode, n.data.refundedAmount])).toEqual([
      [16, 30],
      [16, 45.5],
      [4, 24.5],
    ]);
    expect(await rowSums(intent.paymentId)).toEqual({
      captured: 10000,
      refunded: 10000,
      capturedColumn: 10000,
      refundedColumn: 10000,
    });
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.ledgerBalanceMinor).toBe(OPENING_DZD);
  });

  it("treats 0.1 then 0.2 refunded of 0.3 as a full refund", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 0.3, actionCurrencyCode: "EUR" });
    const first = await refund(api, merchant, intent.paymentId, { description: "a", amount: 0.1 });
    expect(first.body.data).toMatchObject({ totalRefundedAmount: 0.1, remainingRefundableAmount: 0.2 });
    const second = await refund(api, merchant, intent.paymentId, { description: "b", amount: 0.2 });
    expect(second.body.data).toMatchObject({
      status: "Refunded",
      totalRefundedAmount: 0.3,
      transactionAmount: 0.3,
      remainingRefundableAmount: 0,
    });
    expect((await paymentRow(intent.paymentId)).state).toBe("REFUNDED");
  });

  it("runs TND with 3 decimals end to end: reserve, partial capture, partial refunds", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, {
      amount: 250.755,
      actionCurrencyCode: "TND",
      actionCountryCode: "TUN",
      captureMethod: "RESERVATION",
    });
    expect(await walletLedger(merchant, intent.body.userId, "TND")).toMatchObject({
      balanceMinor: 10_000_000,
      heldMinor: 250755,
    });
    expect((await capture(api, merchant, intent.paymentId, { amount: 200.001 })).body.data.statusCode).toBe(2);
    const checked = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ amount: 200.001, currencyCode: "TND" });
    const part = await refund(api, merchant, intent.paymentId, { description: "x", amount: 0.001 });
    expect(part.body.data).toMatchObject({
      refundedAmount: 0.001,
      transactionAmount: 200.001,
      remainingRefundableAmount: 200,
    });
    const rest = await refund(api, merchant, intent.paymentId, { description: "y" });
    expect(rest.body.data).toMatchObject({
      refundedAmount: 200,
      totalRefundedAmount: 200.001,
      remainingRefundableAmount: 0,
    });
    expect(await walletLedger(merchant, intent.body.userId, "TND")).toMatchObject({
      balanceMinor: 10_000_000,
      heldMinor: 0,
      ledgerBalanceMinor: 10_000_000,
      ledgerHeldMinor: 0,
    });
    const tooPrecise = await refund(
      api,
      merchant,
      (await paidIntent(api, merchant, { amount: 1, actionCurrencyCode: "TND", actionCountryCode: "TUN" })).paymentId,
      {
        description: "z",
        amount: 0.0001,
      },
    );
    expect(tooPrecise.status).toBe(400);
  });

  it("refuses more than the remaining refundable amount with 400 amount_exceeds_refundable", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 50 });
    await refund(api, merchant, intent.paymentId, { description: "a", amount: 40 });
    const over = await refund(api, merchant, intent.paymentId, { description: "b", amount: 10.01 });
    expect(over.status).toBe(400);
    expect(over.body.error.name).toBe("amount_exceeds_refundable");
    expect(over.body.message).toContain("10.00 DZD");
    expect((await paymentRow(intent.paymentId)).refundedMinor).toBe(4000);
  });

  it("refunds only the captured part of a partially captured reservation", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 500, captureMethod: "RESERVATION" });
    await capture(api, merchant, intent.paymentId, { amount: 200 });
    const over = await refund(api, merchant, intent.paymentId, { description: "a", amount: 200.01 });
    expect(over.body.error.name).toBe("amount_exceeds_refundable");
    const full = await refund(api, merchant, intent.paymentId, { description: "a" });
    expect(full.body.data).toMatchObject({ refundedAmount: 200, transactionAmount: 200, remainingRefundableAmount: 0 });
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD);
  });

  it.each(["CREATED", "PRE_AUTHORIZED", "FAILED", "CANCELED", "REFUNDED"])(
    "refuses to refund a %s payment with invalid_state",
    async (label) => {
      const merchant = await createMerchant();
      let paymentId: string;
      if (label === "CREATED") paymentId = (await createIntent(api, merchant)).paymentId;
      else if (label === "PRE_AUTHORIZED")
        paymentId = (await paidIntent(api, merchant, { captureMethod: "RESERVATION" })).paymentId;
      else if (label === "FAILED") {
        paymentId = (await createIntent(api, merchant, { amount: 20_000 })).paymentId;
        await proceed(api, paymentId, serverHeaders(merchant));
      } else if (label === "CANCELED") {
        paymentId = (await paidIntent(api, merchant, { captureMethod: "RESERVATION" })).paymentId;
        await release(api, merchant, paymentId);
      } else {
        paymentId = (await paidIntent(api, merchant)).paymentId;
        await refund(api, merchant, paymentId);
      }
      const response = await refund(api, merchant, paymentId);
      expect(response.status).toBe(409);
      expect(response.body.error.name).toBe("invalid_state");
    },
  );

  it("requires a description", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant);
    const response = await refund(api, merchant, intent.paymentId, { amount: 1 });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: "description", message: expect.any(String) }]);
  });
});

describe("capture, release and refund are client_auth only and tenant-scoped", () => {
  it("answers another merchant's payment with 404 not_found", async () => {
    const [owner, other] = [await createMerchant(), await createMerchant()];
    const reserved = await paidIntent(api, owner, { captureMethod: "RESERVATION" });
    const direct = await paidIntent(api, owner);
    for (const response of [
      await capture(api, other, reserved.paymentId),
      await release(api, other, reserved.paymentId),
      await refund(api, other, direct.paymentId),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.name).toBe("not_found");
    }
    expect((await paymentRow(reserved.paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await paymentRow(direct.paymentId)).state).toBe("SUCCEEDED");
  });

  it("refuses merchant_auth and user_auth with 401", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, captureMethod: "RESERVATION" });
    await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    for (const headers of [merchantAuth(merchant, intent.clientSecret), userAuth(merchant, accessToken)]) {
      for (const path of [
        `/api/v1/payments/intents/${intent.paymentId}/capture`,
        `/api/v1/payments/intents/${intent.paymentId}/release`,
        `/api/v1/payments/${intent.paymentId}/refund`,
      ]) {
        const response = await api.post(path, { description: "x" }, headers);
        expect(response.status).toBe(401);
      }
    }
    expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");
  });
});
