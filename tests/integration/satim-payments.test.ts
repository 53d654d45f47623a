import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { providerOperations } from "@/lib/db/schema";
import { payWithRedirect, returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { reconcileRedirectPayments } from "@/lib/payments/operations/reconcile-redirect-payments";
import { installSimulatorMount, redirectSimulatorMount, simulatorMount } from "@/lib/providers/simulator-mount";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { GET as redirectReturn } from "@/app/[locale]/pay/redirect/[paymentId]/return/route";
import { satimFaults } from "@/simulators/satim/satim-simulator";
import { satimOrders } from "@/simulators/satim/satim-tables";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  check,
  createIntent,
  notificationsOf,
  paymentRow,
  proceed,
  reconcileOperationsLater,
  refund,
  serverHeaders,
  tokenOf,
} from "../support/payments";

const { api } = useTestGateway();

afterEach(() => {
  satimFaults.mode = "none";
  satimFaults.slowMs = 15_000;
});

/** A SATIM payment proceeded by the merchant's server: its id and the page token of its payUrl. */
async function proceedWithSatim(merchant: OnboardedMerchant, amount = 1500) {
  const intent = await createIntent(api, merchant, { amount });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "SATIM" });
  expect(proceeded.status).toBe(200);
  return { paymentId: intent.paymentId, token: tokenOf(proceeded.body.data.metadata.payUrl), proceeded };
}

/** The buyer presses Pay on the gateway's page: the order is registered and the answer is SATIM's page. */
async function pressPay(paymentId: string, token: string) {
  const started = await payWithRedirect(await getDb(), { paymentId, token, locale: "en" });
  if (started.kind !== "go") throw new Error(`Pay led to ${started.kind}`);
  return started.formUrl;
}

/** The buyer on SATIM's (simulated) page: a card, or Cancel. Answers where SATIM sends the browser. */
async function onSatimPage(formUrl: string, fields: Record<string, string>) {
  const answer = await redirectSimulatorMount("satim").handle(
    new Request(formUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  expect(answer.status).toBe(303);
  return answer.headers.get("location")!;
}

const VISA = { action: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

async function statusCodeOf(merchant: OnboardedMerchant, paymentId: string): Promise<number> {
  return (await check(api, paymentId, serverHeaders(merchant))).body.data.statusCode;
}

async function satimOrder(orderId: string) {
  const [row] = await (await getDb()).select().from(satimOrders).where(eq(satimOrders.orderId, orderId));
  return row!;
}

describe("SATIM (contract 15)", () => {
  it("is listed for DZA as a REDIRECT method named CIB / EDAHABIA with its logo", async () => {
    const merchant = await createMerchant();
    const response = await api.get("/api/v1/payment-methods/available?countryCode=DZ", clientAuth(merchant));
    const satim = response.body.data.find((item: { code: string }) => item.code === "SATIM");
    expect(satim).toMatchObject({ archetype: "REDIRECT", displayName: "CIB / EDAHABIA" });
    expect(satim.image).toMatch(/\/payment-methods\/cib-edahabia\.svg$/);
    const morocco = await api.get("/api/v1/payment-methods/available?countryCode=MA", clientAuth(merchant));
    expect(morocco.body.data.map((item: { code: string }) => item.code)).not.toContain("SATIM");
  });

  it("answers 12 with the gateway's own page before SATIM's", async () => {
    const merchant = await createMerchant();
    const { proceeded } = await proceedWithSatim(merchant);
    expect(proceeded.body.data).toMatchObject({ statusCode: 12, require3DS: true });
    expect(proceeded.body.data.metadata.payUrl).toMatch(/\/pay\/redirect\/[0-9a-f-]+\?token=/);
  });

  it("refuses an amount under SATIM's minimum and a RESERVATION with validation_error naming the field", async () => {
    const merchant = await createMerchant();
    const small = await createIntent(api, merchant, { amount: 49.99 });
    const tooSmall = await proceed(api, small.paymentId, serverHeaders(merchant), { paymentMethodCode: "SATIM" });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.error).toMatchObject({ name: "validation_error", details: [{ path: "amount" }] });
    const reserved = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    const reservation = await proceed(api, reserved.paymentId, serverHeaders(merchant), { paymentMethodCode: "SATIM" });
    expect(reservation.status).toBe(400);
    expect(reservation.body.error).toMatchObject({
      name: "validation_error",
      details: [{ path: "paymentMethodCode" }],
    });
  });

  it("sends register.do and confirmOrder.do centimes, currency 012, terminal id, udf1 in jsonParams", async () => {
    const merchant = await createMerchant();
    const sent: { call: string; params: URLSearchParams }[] = [];
    const mount = simulatorMount();
    const satim = redirectSimulatorMount("satim");
    installSimulatorMount({
      ...mount,
      redirect: {
        ...mount.redirect,
        satim: {
          ...satim,
          fetch: async (input, init) => {
            sent.push({ call: String(input).split("/").pop()!, params: new URLSearchParams(String(init?.body)) });
            return satim.fetch(input, init);
          },
        },
      },
    });
    try {
      const { paymentId, token } = await proceedWithSatim(merchant, 1500.5);
      const formUrl = await pressPay(paymentId, token);
      const back = await onSatimPage(formUrl, VISA);
      expect(back).toContain(`/en/pay/redirect/${paymentId}/return?token=`);
      await returnFromRedirect(await getDb(), { paymentId, token });

      const register = sent.find((call) => call.call === "register.do")!.params;
      expect(Object.fromEntries(register)).toMatchObject({
        userName: "SANDBOX_MERCHANT",
        password: "sandbox-password",
        amount: "150050",
        currency: "012",
        language: "en",
      });
      expect(register.get("orderNumber")).toMatch(/^[0-9A-Z]{10}$/);
      expect(register.get("returnUrl")).toBe(register.get("failUrl"));
      expect(JSON.parse(register.get("jsonParams")!)).toEqual({
        force_terminal_id: "E010900000",
        udf1: expect.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
      });
      const confirm = sent.find((call) => call.call === "confirmOrder.do")!.params;
      const row = await paymentRow(paymentId);
      expect(Object.fromEntries(confirm)).toMatchObject({ orderId: row.providerOrderId, language: "en" });
      expect(row).toMatchObject({ state: "SUCCEEDED", capturedMinor: 150050 });
      expect(row.approvalCode).toMatch(/^\d{6}$/);
      expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    } finally {
      installSimulatorMount(mount);
    }
  });

  it("takes nothing from a forged success return: only SATIM's answer settles", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const formUrl = await pressPay(paymentId, token);
    const orderId = new URL(formUrl).searchParams.get("mdOrder")!;
    const forged =
      `http://gateway.test/en/pay/redirect/${paymentId}/return?token=${token}` +
      `&orderId=${orderId}&OrderStatus=2&respCode=00&ErrorCode=0`;
    const answer = await redirectReturn(new Request(forged), { params: Promise.resolve({ locale: "en", paymentId }) });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toContain(`/en/pay/return/${paymentId}`);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    expect(await notificationsOf(paymentId)).toEqual([]);
  });

  it("settles a replayed return once, and a declined card fails the payment (3)", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    await onSatimPage(await pressPay(paymentId, token), VISA);
    const db = await getDb();
    await Promise.all([returnFromRedirect(db, { paymentId, token }), returnFromRedirect(db, { paymentId, token })]);
    await returnFromRedirect(db, { paymentId, token });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);

    const declined = await proceedWithSatim(merchant);
    await onSatimPage(await pressPay(declined.paymentId, declined.token), { ...VISA, cardNumber: "4000000000000002" });
    await returnFromRedirect(db, declined);
    expect(await statusCodeOf(merchant, declined.paymentId)).toBe(3);
  });

  it("registers the order once however often Pay is pressed", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const urls = await Promise.all([pressPay(paymentId, token), pressPay(paymentId, token)]);
    expect(urls[0]).toBe(urls[1]);
    expect(await pressPay(paymentId, token)).toBe(urls[0]);
    const registrations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "register")));
    expect(registrations.map((operation) => operation.status)).toEqual(["succeeded"]);
  });

  it("settles the buyer who never returns by reconciliation, and Cancel fails the payment", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    await onSatimPage(await pressPay(paymentId, token), VISA);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    await reconcileRedirectPayments(await getDb(), { paymentId });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);

    const canceled = await proceedWithSatim(merchant);
    await onSatimPage(await pressPay(canceled.paymentId, canceled.token), { action: "cancel" });
    await reconcileRedirectPayments(await getDb(), { paymentId: canceled.paymentId });
    expect(await statusCodeOf(merchant, canceled.paymentId)).toBe(3);
  });

  it("reverses a payment SATIM completed after the intent expired, which stays expired", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const formUrl = await pressPay(paymentId, token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await onSatimPage(formUrl, VISA);
    await reconcileRedirectPayments(await getDb(), { paymentId });

    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ state: "FAILED", failureReason: "expired", capturedMinor: 0 });
    const order = await satimOrder(row.providerOrderId ?? new URL(formUrl).searchParams.get("mdOrder")!);
    expect(order).toMatchObject({ orderStatus: "4", refundedMinor: 150000 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("refunds in part then in full through refund.do", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const formUrl = await pressPay(paymentId, token);
    await onSatimPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    const partial = await refund(api, merchant, paymentId, { description: "one item back", amount: 500.25 });
    expect(partial.status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(16);
    const rest = await refund(api, merchant, paymentId, { description: "the rest" });
    expect(rest.status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(4);
    expect(await satimOrder(new URL(formUrl).searchParams.get("mdOrder")!)).toMatchObject({
      orderStatus: "4",
      refundedMinor: 150000,
    });
  });

  it("answers 503 while SATIM is down and settles the refund once when it is back", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const formUrl = await pressPay(paymentId, token);
    await onSatimPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });

    satimFaults.mode = "down";
    const refused = await refund(
      api,
      merchant,
      paymentId,
      { description: "down" },
      { "Idempotency-Key": `satim-down-${paymentId}` },
    );
    expect(refused.status).toBe(503);
    expect(refused.body.error.name).toBe("provider_unavailable");
    satimFaults.mode = "none";
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    expect(await statusCodeOf(merchant, paymentId)).toBe(4);
    expect(await satimOrder(new URL(formUrl).searchParams.get("mdOrder")!)).toMatchObject({ refundedMinor: 150000 });
  });

  it("reconciles a full refund SATIM made after the gateway's wait by asking SATIM; no refund twice", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    const formUrl = await pressPay(paymentId, token);
    await onSatimPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    // Slower than the gateway waits (10 s): the refund answers unavailable, SATIM refunds anyway.
    satimFaults.mode = "slow";
    satimFaults.slowMs = 10_500;
    const lost = await refund(
      api,
      merchant,
      paymentId,
      { description: "lost answer" },
      { "Idempotency-Key": `satim-lost-${paymentId}` },
    );
    expect(lost.status).toBe(503);
    satimFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const orderId = new URL(formUrl).searchParams.get("mdOrder")!;
    expect(await satimOrder(orderId)).toMatchObject({ orderStatus: "4", refundedMinor: 150000 });
    await reconcileOperationsLater(paymentId);
    // Calling refund.do again would be refused (nothing left), and the gateway would fail a refund SATIM made.
    expect(await statusCodeOf(merchant, paymentId)).toBe(4);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "REFUNDED", refundedMinor: 150000 });
    expect(await satimOrder(orderId)).toMatchObject({ refundedMinor: 150000 });
    expect((await notificationsOf(paymentId)).filter((n) => n.type === "payment.refunded")).toHaveLength(1);
  }, 30_000);

  it("leaves Pay to be pressed again while SATIM is down, and registers once when it is back", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    satimFaults.mode = "down";
    expect((await payWithRedirect(await getDb(), { paymentId, token, locale: "en" })).kind).toBe("unavailable");
    satimFaults.mode = "none";
    const formUrl = await pressPay(paymentId, token);
    expect(formUrl).toContain("mdOrder=");
    const registrations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "register")));
    expect(registrations).toHaveLength(1);
  });

  it("goes on with a new order number when a slow SATIM registered the order but its answer was lost", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithSatim(merchant);
    // Slower than the gateway waits (PROVIDER_CALL_TIMEOUT_MS, 10 s): the press answers unavailable, SATIM
    // registers anyway.
    satimFaults.mode = "slow";
    satimFaults.slowMs = 10_500;
    expect((await payWithRedirect(await getDb(), { paymentId, token, locale: "en" })).kind).toBe("unavailable");
    satimFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const formUrl = await pressPay(paymentId, token);
    await onSatimPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    const registrations = await (
      await getDb()
    )
      .select({ status: providerOperations.status, resultCode: providerOperations.resultCode })
      .from(providerOperations)
      .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "register")));
    expect(registrations.map((operation) => operation.status).sort()).toEqual(["failed", "succeeded"]);
    expect(registrations.find((operation) => operation.status === "failed")?.resultCode).toBe("order_number_taken");
  });
});
