import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments, paymentRefunds } from "@/lib/db/schema";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  capture,
  createIntent,
  intentBody,
  notificationsOf,
  OPENING_DZD,
  paidIntent,
  paymentRow,
  postIntent,
  proceed,
  refund,
  release,
  serverHeaders,
  serviceIdOf,
  tokenOf,
  walletLedger,
} from "../support/payments";

// Run on PostgreSQL (DATABASE_URL) to exercise real row locks; PGlite serializes everything.
const { api } = useTestGateway();

const statuses = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>(
    (count, { status }) => ({ ...count, [status]: (count[status] ?? 0) + 1 }),
    {},
  );

describe("parallel requests on one payment", () => {
  it("lets exactly 3 of 20 parallel refunds of 30% succeed", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { amount: 1000 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        refund(api, merchant, intent.paymentId, { description: `r${index}`, amount: 300 }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 3, 400: 17 });
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body.error.name).toBe("amount_exceeds_refundable");
    }
    expect(
      responses
        .filter((r) => r.status === 200)
        .map((r) => r.body.data.totalRefundedAmount)
        .sort(),
    ).toEqual([300, 600, 900]);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 90000 });
    const rows = await (
      await getDb()
    )
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, intent.paymentId));
    expect(rows).toHaveLength(3);
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - 100000 + 90000,
      ledgerBalanceMinor: OPENING_DZD - 100000 + 90000,
    });
    expect((await notificationsOf(intent.paymentId)).filter((n) => n.type === "payment.refunded")).toHaveLength(3);
  });

  it("lets exactly 1 of 10 parallel captures succeed", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 700 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => capture(api, merchant, intent.paymentId, { amount: 100 + index })),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 409: 9 });
    const capturedMinor = (await paymentRow(intent.paymentId)).capturedMinor;
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD - capturedMinor,
      heldMinor: 0,
      ledgerBalanceMinor: OPENING_DZD - capturedMinor,
      ledgerHeldMinor: 0,
    });
  });

  it("lets only one of parallel captures and releases win", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 700 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? capture(api, merchant, intent.paymentId) : release(api, merchant, intent.paymentId),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 409: 9 });
    const ledger = await walletLedger(merchant, intent.body.userId, "DZD");
    expect(ledger?.heldMinor).toBe(0);
    expect([OPENING_DZD, OPENING_DZD - 70000]).toContain(ledger?.balanceMinor);
  });

  it("creates exactly one intent from 10 parallel creates with one actionId", async () => {
    const merchant = await createMerchant();
    const body = intentBody();
    const responses = await Promise.all(Array.from({ length: 10 }, () => postIntent(api, merchant, body)));
    expect(statuses(responses)).toEqual({ 201: 10 });
    expect(new Set(responses.map((r) => r.body.data.paymentId)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.data.clientSecret)).size).toBe(1);
    const rows = await (
      await getDb()
    )
      .select()
      .from(payments)
      .where(eq(payments.serviceId, await serviceIdOf(merchant)));
    expect(rows).toHaveLength(1);
  });

  it("proceeds an intent once when 10 proceeds race", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, amount: 100 });
    const headers = userAuth(merchant, accessToken, { "x-platform": "WEB" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => proceed(api, intent.paymentId, headers)));
    expect(statuses(responses)).toEqual({ 200: 1, 409: 9 });
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 10000);
  });

  it("charges once when the right code is submitted 10 times at once", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { amount: 100 });
    const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
    const token = tokenOf(proceeded.body.data.metadata.payUrl);
    const db = await getDb();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 10000);
  });
});

describe("parallel payments on one wallet", () => {
  it("never overdraws: 15 parallel payments of 1,000 on a 10,000 wallet: 10 succeeded, 5 rejected", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const headers = userAuth(merchant, accessToken, { "x-platform": "WEB" });
    const intents = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        createIntent(api, merchant, {
          userId: customer.phone,
          amount: 1000,
          captureMethod: index % 2 ? "RESERVATION" : "DIRECT",
        }),
      ),
    );
    const responses = await Promise.all(intents.map((intent) => proceed(api, intent.paymentId, headers)));
    expect(statuses(responses)).toEqual({ 200: 15 });
    const codes = responses.map((r) => r.body.data.statusCode);
    expect(codes.filter((code) => code === 3)).toHaveLength(5);
    expect(codes.filter((code) => code === 2 || code === 13)).toHaveLength(10);
    expect(await walletLedger(merchant, customer.phone, "DZD")).toMatchObject({ availableMinor: 0 });
    const ledger = await walletLedger(merchant, customer.phone, "DZD");
    expect(ledger?.ledgerBalanceMinor).toBe(ledger?.balanceMinor);
    expect(ledger?.ledgerHeldMinor).toBe(ledger?.heldMinor);
  });
});
