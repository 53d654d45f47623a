import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { providerOperations } from "@/lib/db/schema";
import { payWithRedirect, returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { reconcileRedirectPayments } from "@/lib/payments/operations/reconcile-redirect-payments";
import { installSimulatorMount, redirectSimulatorMount, simulatorMount } from "@/lib/providers/simulator-mount";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { GET as redirectReturn } from "@/app/[locale]/pay/redirect/[paymentId]/return/route";
import { clictopayFaults } from "@/simulators/clictopay/clictopay-simulator";
import { clictopayOrders } from "@/simulators/clictopay/clictopay-tables";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  capture,
  check,
  createIntent,
  notificationsOf,
  paymentRow,
  proceed,
  reconcileOperationsLater,
  refund,
  release,
  serverHeaders,
  tokenOf,
} from "../support/payments";

const { api } = useTestGateway();

afterEach(() => {
  clictopayFaults.mode = "none";
});

/** A TND payment proceeded with ClicToPay by the merchant's server. */
async function proceedWithClictopay(
  merchant: OnboardedMerchant,
  options: { amount?: number; captureMethod?: "DIRECT" | "RESERVATION" } = {},
) {
  const intent = await createIntent(api, merchant, {
    amount: options.amount ?? 1.234,
    actionCurrencyCode: "TND",
    actionCountryCode: "TUN",
    captureMethod: options.captureMethod,
  });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CLICTOPAY" });
  expect(proceeded.status).toBe(200);
  return { paymentId: intent.paymentId, token: tokenOf(proceeded.body.data.metadata.payUrl), proceeded };
}

async function pressPay(paymentId: string, token: string) {
  const started = await payWithRedirect(await getDb(), { paymentId, token, locale: "en" });
  if (started.kind !== "go") throw new Error(`Pay led to ${started.kind}`);
  return started.formUrl;
}

/** The buyer on ClicToPay's (simulated) page; answers where ClicToPay sends the browser. */
async function onClictopayPage(formUrl: string, fields: Record<string, string>) {
  const answer = await redirectSimulatorMount("clictopay").handle(
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

const statusCodeOf = async (merchant: OnboardedMerchant, paymentId: string): Promise<number> =>
  (await check(api, paymentId, serverHeaders(merchant))).body.data.statusCode;

async function orderOf(formUrl: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(clictopayOrders)
    .where(eq(clictopayOrders.orderId, new URL(formUrl).searchParams.get("mdOrder")!));
  return row!;
}

/** A ClicToPay reservation the buyer authorized and the gateway settled as PRE_AUTHORIZED. */
async function authorizedReservation(merchant: OnboardedMerchant, amount = 10.5) {
  const { paymentId, token } = await proceedWithClictopay(merchant, { amount, captureMethod: "RESERVATION" });
  const formUrl = await pressPay(paymentId, token);
  await onClictopayPage(formUrl, VISA);
  await returnFromRedirect(await getDb(), { paymentId, token });
  expect(await statusCodeOf(merchant, paymentId)).toBe(13);
  return { paymentId, token, formUrl };
}

describe("ClicToPay (contract 15, issue 44)", () => {
  it("is listed for TUN as a REDIRECT method named ClicToPay, and not elsewhere", async () => {
    const merchant = await createMerchant();
    const tunisia = await api.get("/api/v1/payment-methods/available?countryCode=TN", clientAuth(merchant));
    const clictopay = tunisia.body.data.find((item: { code: string }) => item.code === "CLICTOPAY");
    expect(clictopay).toMatchObject({ archetype: "REDIRECT", displayName: "ClicToPay" });
    expect(clictopay.image).toMatch(/\/payment-methods\/clictopay\.svg$/);
    const algeria = await api.get("/api/v1/payment-methods/available?countryCode=DZ", clientAuth(merchant));
    expect(algeria.body.data.map((item: { code: string }) => item.code)).not.toContain("CLICTOPAY");
  });

  it("sends register.do, getOrderStatusExtended.do in millimes, currency 788: 1.234 TND is 1234", async () => {
    const merchant = await createMerchant();
    const sent: { call: string; params: URLSearchParams }[] = [];
    const mount = simulatorMount();
    const clictopay = redirectSimulatorMount("clictopay");
    installSimulatorMount({
      ...mount,
      redirect: {
        ...mount.redirect,
        clictopay: {
          ...clictopay,
          fetch: async (input, init) => {
            sent.push({ call: String(input).split("/").pop()!, params: new URLSearchParams(String(init?.body)) });
            return clictopay.fetch(input, init);
          },
        },
      },
    });
    try {
      const { paymentId, token } = await proceedWithClictopay(merchant, { amount: 1.234 });
      const formUrl = await pressPay(paymentId, token);
      const page = await (await redirectSimulatorMount("clictopay").handle(new Request(formUrl))).text();
      expect(page).toContain("1.234 TND");
      for (const label of ["Card number", "Expiry date", "CVC", "Pay", "Cancel"]) expect(page).toContain(label);
      await onClictopayPage(formUrl, VISA);
      await returnFromRedirect(await getDb(), { paymentId, token });

      const register = sent.find((call) => call.call === "register.do")!.params;
      expect(Object.fromEntries(register)).toMatchObject({
        userName: "SANDBOX_CTP_MERCHANT",
        password: "sandbox-ctp-password",
        amount: "1234",
        currency: "788",
        language: "en",
      });
      expect(register.get("orderNumber")).toMatch(/^[0-9A-F]{20}$/);
      expect(register.get("returnUrl")).toBe(register.get("failUrl"));
      expect(sent.some((call) => call.call === "registerPreAuth.do")).toBe(false);
      const row = await paymentRow(paymentId);
      const status = sent.find((call) => call.call === "getOrderStatusExtended.do")!.params;
      expect(Object.fromEntries(status)).toMatchObject({ orderId: row.providerOrderId, language: "en" });
      expect(row).toMatchObject({ state: "SUCCEEDED", amountMinor: 1234, capturedMinor: 1234 });
      expect(row.approvalCode).toMatch(/^\d{6}$/);
      const checked = await check(api, paymentId, serverHeaders(merchant));
      expect(checked.body.data).toMatchObject({ statusCode: 2, amount: 1.234 });
      const [notification] = await notificationsOf(paymentId);
      expect(JSON.stringify(notification)).toContain("1.234");
    } finally {
      installSimulatorMount(mount);
    }
  });

  it("takes nothing from a forged or replayed return: only ClicToPay's answer settles, once", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant);
    const formUrl = await pressPay(paymentId, token);
    const orderId = new URL(formUrl).searchParams.get("mdOrder")!;
    const forged =
      `http://gateway.test/en/pay/redirect/${paymentId}/return?token=${token}` +
      `&orderId=${orderId}&orderStatus=2&errorCode=0`;
    const answer = await redirectReturn(new Request(forged), { params: Promise.resolve({ locale: "en", paymentId }) });
    expect(answer.status).toBe(303);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    expect(await notificationsOf(paymentId)).toEqual([]);

    await onClictopayPage(formUrl, VISA);
    const db = await getDb();
    await Promise.all([returnFromRedirect(db, { paymentId, token }), returnFromRedirect(db, { paymentId, token })]);
    await returnFromRedirect(db, { paymentId, token });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("reconciles a buyer who never returns; a declined card and Cancel fail the payment (3)", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant);
    await onClictopayPage(await pressPay(paymentId, token), VISA);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    await reconcileRedirectPayments(await getDb(), { paymentId });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);

    const declined = await proceedWithClictopay(merchant);
    await onClictopayPage(await pressPay(declined.paymentId, declined.token), {
      ...VISA,
      cardNumber: "4000000000000002",
    });
    await reconcileRedirectPayments(await getDb(), { paymentId: declined.paymentId });
    expect(await statusCodeOf(merchant, declined.paymentId)).toBe(3);

    const canceled = await proceedWithClictopay(merchant);
    await onClictopayPage(await pressPay(canceled.paymentId, canceled.token), { action: "cancel" });
    await returnFromRedirect(await getDb(), canceled);
    expect(await statusCodeOf(merchant, canceled.paymentId)).toBe(3);
  });

  it("reserves by registerPreAuth.do, captures part by deposit.do, then refunds in part and in full", async () => {
    const merchant = await createMerchant();
    const { paymentId, formUrl } = await authorizedReservation(merchant, 10.5);
    expect(await orderOf(formUrl)).toMatchObject({
      phases: "two",
      orderStatus: "1",
      approvedMinor: 10500,
      depositedMinor: 0,
    });

    const captured = await capture(api, merchant, paymentId, { amount: 7.25 });
    expect(captured.status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "2", depositedMinor: 7250 });
    expect((await paymentRow(paymentId)).capturedMinor).toBe(7250);

    expect((await refund(api, merchant, paymentId, { description: "one item", amount: 1.001 })).status).toBe(200);
    expect((await refund(api, merchant, paymentId, { description: "another", amount: 2.002 })).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(16);
    expect((await refund(api, merchant, paymentId, { description: "the rest" })).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(4);
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "4", refundedMinor: 7250 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(
      expect.arrayContaining(["payment.pre_authorized", "payment.captured"]),
    );
  });

  it("releases a pre-authorization through reverse.do", async () => {
    const merchant = await createMerchant();
    const { paymentId, formUrl } = await authorizedReservation(merchant);
    const released = await release(api, merchant, paymentId);
    expect(released.status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(10);
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "3", depositedMinor: 0 });
  });

  it("at expiry reverses the reservation and releases a later hold: nothing stays open at ClicToPay", async () => {
    const merchant = await createMerchant();
    const late = await proceedWithClictopay(merchant, { captureMethod: "RESERVATION" });
    const lateForm = await pressPay(late.paymentId, late.token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await onClictopayPage(lateForm, VISA);
    expect(await orderOf(lateForm)).toMatchObject({ orderStatus: "1" });
    await reconcileRedirectPayments(await getDb(), { paymentId: late.paymentId });
    await reconcileOperationsLater(late.paymentId);
    expect(await paymentRow(late.paymentId)).toMatchObject({
      state: "FAILED",
      failureReason: "expired",
      capturedMinor: 0,
    });
    expect(await orderOf(lateForm)).toMatchObject({ orderStatus: "3" });
    expect((await notificationsOf(late.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("at expiry of an unpaid reservation asks reverse.do, which finds nothing held", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant, { captureMethod: "RESERVATION" });
    const formUrl = await pressPay(paymentId, token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await reconcileRedirectPayments(await getDb(), { paymentId });
    await reconcileOperationsLater(paymentId);
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    const operations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(eq(providerOperations.paymentId, paymentId));
    expect(operations.find((operation) => operation.kind === "release")).toMatchObject({
      status: "succeeded",
      provider: "clictopay",
    });
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "0", approvedMinor: 0 });
  });

  it("reconciles a capture ClicToPay applied after the gateway's wait: asks the order, deposits once", async () => {
    const merchant = await createMerchant();
    const { paymentId, formUrl } = await authorizedReservation(merchant, 4.444);
    // Slower than the gateway waits (PROVIDER_CALL_TIMEOUT_MS, 10 s): the capture answers unavailable,
    // ClicToPay deposits anyway.
    clictopayFaults.mode = "slow";
    clictopayFaults.slowMs = 10_500;
    const lost = await capture(
      api,
      merchant,
      paymentId,
      { amount: 2.222 },
      { "Idempotency-Key": `ctp-lost-${paymentId}` },
    );
    expect(lost.status).toBe(503);
    clictopayFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "2", depositedMinor: 2222 });
    await reconcileOperationsLater(paymentId);
    expect(await check(api, paymentId, serverHeaders(merchant))).toMatchObject({
      body: { data: { statusCode: 2, amount: 2.222 } },
    });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "SUCCEEDED", capturedMinor: 2222 });
    expect((await notificationsOf(paymentId)).filter((n) => n.type === "payment.captured")).toHaveLength(1);
  }, 30_000);

  it("settles a partial refund ClicToPay made after the gateway's wait, and refunds nothing twice", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant, { amount: 9.999 });
    const formUrl = await pressPay(paymentId, token);
    await onClictopayPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    const first = await refund(api, merchant, paymentId, { description: "one item", amount: 1.111 });
    expect(first.status).toBe(200);
    // Slower than the gateway waits (10 s): the refund answers unavailable, ClicToPay refunds anyway.
    clictopayFaults.mode = "slow";
    clictopayFaults.slowMs = 10_500;
    const lost = await refund(
      api,
      merchant,
      paymentId,
      { description: "lost answer", amount: 2.222 },
      { "Idempotency-Key": `ctp-refund-lost-${paymentId}` },
    );
    expect(lost.status).toBe(503);
    clictopayFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 3333 });
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    // A second refund.do would have given the buyer 2.222 TND more than the merchant refunded.
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "2", refundedMinor: 3333 });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 3333 });
    expect(await check(api, paymentId, serverHeaders(merchant))).toMatchObject({ body: { data: { statusCode: 16 } } });
  }, 30_000);

  it("refunds nothing twice if the process died between ClicToPay's refund and its settle (op pending)", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant, { amount: 6.666 });
    const formUrl = await pressPay(paymentId, token);
    await onClictopayPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    clictopayFaults.mode = "slow";
    clictopayFaults.slowMs = 10_500;
    expect(
      (
        await refund(
          api,
          merchant,
          paymentId,
          { description: "died", amount: 3.333 },
          { "Idempotency-Key": `ctp-died-${paymentId}` },
        )
      ).status,
    ).toBe(503);
    clictopayFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // As a request that died after its call leaves it: pending, no attempt counted.
    const db = await getDb();
    await db
      .update(providerOperations)
      .set({ status: "pending", attempts: 0 })
      .where(eq(providerOperations.paymentId, paymentId));
    // The merchant retries with the same key on another process: it leaves the call to reconciliation.
    const retried = await refund(
      api,
      merchant,
      paymentId,
      { description: "died", amount: 3.333 },
      { "Idempotency-Key": `ctp-died-${paymentId}` },
    );
    expect(retried.status).toBe(503);
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 3333 });
    await reconcileOperationsLater(paymentId);
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 3333 });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 3333 });
  }, 30_000);

  it("settles two equal refunds, both answers lost, ClicToPay having made one: the other is made once", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant, { amount: 8.888 });
    const formUrl = await pressPay(paymentId, token);
    await onClictopayPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    clictopayFaults.mode = "slow";
    clictopayFaults.slowMs = 10_500;
    const slow = refund(
      api,
      merchant,
      paymentId,
      { description: "first", amount: 2 },
      { "Idempotency-Key": `ctp-eq1-${paymentId}` },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    clictopayFaults.mode = "down";
    const down = await refund(
      api,
      merchant,
      paymentId,
      { description: "second", amount: 2 },
      { "Idempotency-Key": `ctp-eq2-${paymentId}` },
    );
    expect(down.status).toBe(503);
    expect((await slow).status).toBe(503);
    clictopayFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // ClicToPay made the first (slow) one only; the gateway cannot tell which by the total, and need not.
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 2000 });
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 4000 });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 4000 });
  }, 30_000);

  it("refunds once when ClicToPay was down at first: the retry finds no refund and calls again", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithClictopay(merchant, { amount: 5.555 });
    const formUrl = await pressPay(paymentId, token);
    await onClictopayPage(formUrl, VISA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    clictopayFaults.mode = "down";
    const refused = await refund(
      api,
      merchant,
      paymentId,
      { description: "down", amount: 1.5 },
      { "Idempotency-Key": `ctp-refund-down-${paymentId}` },
    );
    expect(refused.status).toBe(503);
    clictopayFaults.mode = "none";
    await reconcileOperationsLater(paymentId);
    expect(await orderOf(formUrl)).toMatchObject({ refundedMinor: 1500 });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 1500 });
  });

  it("answers 503 while ClicToPay is down and settles the capture once when it is back", async () => {
    const merchant = await createMerchant();
    const { paymentId, formUrl } = await authorizedReservation(merchant, 3.333);
    clictopayFaults.mode = "down";
    const refused = await capture(
      api,
      merchant,
      paymentId,
      { amount: 3.333 },
      { "Idempotency-Key": `ctp-down-${paymentId}` },
    );
    expect(refused.status).toBe(503);
    expect(refused.body.error.name).toBe("provider_unavailable");
    clictopayFaults.mode = "none";
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect(await orderOf(formUrl)).toMatchObject({ orderStatus: "2", depositedMinor: 3333 });
    expect((await notificationsOf(paymentId)).filter((n) => n.type === "payment.captured")).toHaveLength(1);
  });
});
