import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { providerOperations, services } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/auth/principal";
import { getPaymentDetail } from "@/lib/console/payments/get-payment-detail";
import { notifyRedirect, payWithRedirect, returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { reconcileRedirectPayments } from "@/lib/payments/operations/reconcile-redirect-payments";
import { installSimulatorMount, redirectSimulatorMount, simulatorMount } from "@/lib/providers/simulator-mount";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { verifyChargilySignature } from "@/lib/payment-methods/chargily/chargily-provider";
import { GET as redirectReturn } from "@/app/[locale]/pay/redirect/[paymentId]/return/route";
import { POST as notificationEndpoint } from "@/app/api/v1/redirect-notifications/[id]/route";
import { CHARGILY_SANDBOX_SECRET_KEY, chargilyFaults } from "@/simulators/chargily/chargily-simulator";
import { chargilyCheckouts } from "@/simulators/chargily/chargily-tables";
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
  chargilyFaults.mode = "none";
  chargilyFaults.webhook = "before_return";
});

/** A DZD payment proceeded with Chargily by the merchant's server. */
async function proceedWithChargily(merchant: OnboardedMerchant, amount = 1500) {
  const intent = await createIntent(api, merchant, { amount });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CHARGILY" });
  expect(proceeded.status).toBe(200);
  return { paymentId: intent.paymentId, token: tokenOf(proceeded.body.data.metadata.payUrl), proceeded };
}

async function pressPay(paymentId: string, token: string, locale: "en" | "fr" | "ar" = "en") {
  const started = await payWithRedirect(await getDb(), { paymentId, token, locale });
  if (started.kind !== "go") throw new Error(`Pay led to ${started.kind}`);
  return started.formUrl;
}

/** The buyer on Chargily's (simulated) checkout; answers where Chargily sends the browser. */
async function onChargilyPage(checkoutUrl: string, fields: Record<string, string>) {
  const answer = await redirectSimulatorMount("chargily").handle(
    new Request(checkoutUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  expect(answer.status).toBe(303);
  return answer.headers.get("location")!;
}

const EDAHABIA = {
  action: "pay",
  paymentMethod: "edahabia",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/34",
  cvc: "123",
};

const statusCodeOf = async (merchant: OnboardedMerchant, paymentId: string): Promise<number> =>
  (await check(api, paymentId, serverHeaders(merchant))).body.data.statusCode;

async function checkoutOf(checkoutUrl: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(chargilyCheckouts)
    .where(eq(chargilyCheckouts.id, checkoutUrl.split("/").pop()!));
  return row!;
}

/** A webhook as Chargily would post it for `checkoutId`, signed with `key`. */
function webhook(
  paymentId: string,
  options: { checkoutId: string; status: string; amount: number; key?: string; signature?: string },
) {
  const body = JSON.stringify({
    id: "01hj5n7cqpaf0mt2d0xx85tgz8",
    entity: "event",
    livemode: "false",
    type: `checkout.${options.status}`,
    data: {
      id: options.checkoutId,
      entity: "checkout",
      amount: options.amount,
      currency: "dzd",
      status: options.status,
    },
  });
  const signature =
    options.signature ??
    createHmac("sha256", options.key ?? CHARGILY_SANDBOX_SECRET_KEY)
      .update(body)
      .digest("hex");
  return new Request(`http://gateway.test/api/v1/redirect-notifications/${paymentId}`, {
    method: "POST",
    headers: { "content-type": "application/json", signature },
    body,
  });
}

const postNotification = (request: Request, paymentId: string) =>
  notificationEndpoint(request, { params: Promise.resolve({ id: paymentId }) });

describe("Chargily Pay (contract 15, issue 43)", () => {
  it("is listed for DZA as a REDIRECT method naming CIB / EDAHABIA, with its logo, and not elsewhere", async () => {
    const merchant = await createMerchant();
    const algeria = await api.get("/api/v1/payment-methods/available?countryCode=DZ", clientAuth(merchant));
    const chargily = algeria.body.data.find((item: { code: string }) => item.code === "CHARGILY");
    expect(chargily).toMatchObject({ archetype: "REDIRECT", displayName: "Chargily Pay (CIB / EDAHABIA)" });
    expect(chargily.image).toMatch(/\/payment-methods\/chargily\.svg$/);
    const tunisia = await api.get("/api/v1/payment-methods/available?countryCode=TN", clientAuth(merchant));
    expect(tunisia.body.data.map((item: { code: string }) => item.code)).not.toContain("CHARGILY");
  });

  it("refuses centimes, under 50 DZD and RESERVATION at proceed (validation_error), never rounding", async () => {
    const merchant = await createMerchant();
    const centimes = await createIntent(api, merchant, { amount: 1500.5 });
    const refused = await proceed(api, centimes.paymentId, serverHeaders(merchant), { paymentMethodCode: "CHARGILY" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      name: "validation_error",
      details: [{ path: "amount", message: "Chargily Pay takes whole dinars only (no centimes)" }],
    });
    expect(await paymentRow(centimes.paymentId)).toMatchObject({ state: "CREATED", amountMinor: 150050 });
    const small = await createIntent(api, merchant, { amount: 49 });
    expect(
      (await proceed(api, small.paymentId, serverHeaders(merchant), { paymentMethodCode: "CHARGILY" })).body.error,
    ).toMatchObject({ details: [{ path: "amount" }] });
    const reserved = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    const reservation = await proceed(api, reserved.paymentId, serverHeaders(merchant), {
      paymentMethodCode: "CHARGILY",
    });
    expect(reservation.status).toBe(400);
    expect(reservation.body.error).toMatchObject({
      name: "validation_error",
      details: [{ path: "paymentMethodCode" }],
    });
  });

  it("creates the checkout (whole dinars, dzd, locale, webhook_endpoint); a signed webhook settles once", async () => {
    const merchant = await createMerchant();
    const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
    const mount = simulatorMount();
    const chargily = redirectSimulatorMount("chargily");
    installSimulatorMount({
      ...mount,
      redirect: {
        ...mount.redirect,
        chargily: {
          ...chargily,
          fetch: async (input, init) => {
            sent.push({
              method: String(init?.method),
              url: String(input),
              headers: new Headers(init?.headers),
              body: String(init?.body ?? ""),
            });
            return chargily.fetch(input, init);
          },
        },
      },
    });
    try {
      const { paymentId, token, proceeded } = await proceedWithChargily(merchant, 1500);
      expect(proceeded.body.data).toMatchObject({ statusCode: 12, require3DS: true });
      const checkoutUrl = await pressPay(paymentId, token, "ar");
      const [create] = sent;
      expect(create).toMatchObject({ method: "POST" });
      expect(create!.url).toMatch(/\/api\/chargily-sandbox\/api\/v2\/checkouts$/);
      expect(create!.headers.get("authorization")).toBe(`Bearer ${CHARGILY_SANDBOX_SECRET_KEY}`);
      const body = JSON.parse(create!.body);
      expect(body).toMatchObject({
        amount: 1500,
        currency: "dzd",
        locale: "ar",
        metadata: { order_number: `${paymentId}-0` },
      });
      expect(body.success_url).toMatch(new RegExp(`/ar/pay/redirect/${paymentId}/return\\?token=`));
      expect(body.failure_url).toBe(body.success_url);
      expect(body.webhook_endpoint).toMatch(new RegExp(`/api/v1/redirect-notifications/${paymentId}$`));

      const page = await (await redirectSimulatorMount("chargily").handle(new Request(checkoutUrl))).text();
      expect(page).toContain('dir="rtl"');
      expect(page).toContain("1500 DZD");
      // The webhook comes before the buyer's return (Chargily's usual order) and settles the payment.
      await onChargilyPage(checkoutUrl, EDAHABIA);
      expect(await checkoutOf(checkoutUrl)).toMatchObject({ status: "paid", paymentMethod: "edahabia", amount: 1500 });
      expect(await statusCodeOf(merchant, paymentId)).toBe(2);
      expect(sent.filter((call) => call.method === "GET")).toHaveLength(0);
      // The return after it asks nothing more and changes nothing.
      await returnFromRedirect(await getDb(), { paymentId, token });
      const row = await paymentRow(paymentId);
      expect(row).toMatchObject({
        state: "SUCCEEDED",
        amountMinor: 150000,
        capturedMinor: 150000,
        providerOrderId: checkoutUrl.split("/").pop(),
      });
      expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
    } finally {
      installSimulatorMount(mount);
    }
  });

  it("verifies the signature as Chargily's SDK does: HMAC-SHA256 hex of the raw body with the secret key", () => {
    const body = '{"entity":"event","type":"checkout.paid"}';
    const signature = createHmac("sha256", CHARGILY_SANDBOX_SECRET_KEY).update(body).digest("hex");
    expect(verifyChargilySignature(body, signature, CHARGILY_SANDBOX_SECRET_KEY)).toBe(true);
    expect(verifyChargilySignature(`${body} `, signature, CHARGILY_SANDBOX_SECRET_KEY)).toBe(false);
    expect(verifyChargilySignature(body, signature, "test_sk_another")).toBe(false);
    expect(verifyChargilySignature(body, signature.slice(0, 10), CHARGILY_SANDBOX_SECRET_KEY)).toBe(false);
    expect(verifyChargilySignature(body, null, CHARGILY_SANDBOX_SECRET_KEY)).toBe(false);
  });

  it("takes nothing from forged webhooks, returns, another checkout's webhook; a resent one settles once", async () => {
    const merchant = await createMerchant();
    chargilyFaults.webhook = "none";
    const { paymentId, token } = await proceedWithChargily(merchant);
    const checkoutUrl = await pressPay(paymentId, token);
    const checkoutId = checkoutUrl.split("/").pop()!;

    const wrongKey = await postNotification(
      webhook(paymentId, { checkoutId, status: "paid", amount: 1500, key: "test_sk_NotTheMerchantsKey000" }),
      paymentId,
    );
    expect(wrongKey.status).toBe(401);
    const unsigned = await postNotification(
      webhook(paymentId, { checkoutId, status: "paid", amount: 1500, signature: "" }),
      paymentId,
    );
    expect(unsigned.status).toBe(401);
    const otherCheckout = await postNotification(
      webhook(paymentId, { checkoutId: "01hzzzzzzzzzzzzzzzzzzzzzzz", status: "paid", amount: 1500 }),
      paymentId,
    );
    expect(otherCheckout.status).toBe(200);
    const forgedReturn =
      `http://gateway.test/en/pay/redirect/${paymentId}/return?token=${token}` +
      `&checkout_id=${checkoutId}&status=paid`;
    expect(
      (await redirectReturn(new Request(forgedReturn), { params: Promise.resolve({ locale: "en", paymentId }) }))
        .status,
    ).toBe(303);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    expect(await notificationsOf(paymentId)).toEqual([]);

    chargilyFaults.webhook = "twice";
    await onChargilyPage(checkoutUrl, EDAHABIA);
    const db = await getDb();
    await Promise.all([returnFromRedirect(db, { paymentId, token }), returnFromRedirect(db, { paymentId, token })]);
    // Replayed, correctly signed: changes nothing.
    expect(
      (await postNotification(webhook(paymentId, { checkoutId, status: "paid", amount: 1500 }), paymentId)).status,
    ).toBe(200);
    expect(
      (await postNotification(webhook(paymentId, { checkoutId, status: "failed", amount: 1500 }), paymentId)).status,
    ).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("settles by GET /checkouts/{id} on a return before the webhook; the late webhook changes nothing", async () => {
    const merchant = await createMerchant();
    chargilyFaults.webhook = "after_return";
    const { paymentId, token } = await proceedWithChargily(merchant);
    await onChargilyPage(await pressPay(paymentId, token), EDAHABIA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, chargilyFaults.afterReturnMs + 300));
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("reconciles a buyer who never returns (no webhook); a declined card and Cancel fail it (3)", async () => {
    const merchant = await createMerchant();
    chargilyFaults.webhook = "none";
    const { paymentId, token } = await proceedWithChargily(merchant);
    await onChargilyPage(await pressPay(paymentId, token), { ...EDAHABIA, paymentMethod: "cib" });
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    await reconcileRedirectPayments(await getDb(), { paymentId });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);

    chargilyFaults.webhook = "before_return";
    const declined = await proceedWithChargily(merchant);
    const declinedUrl = await pressPay(declined.paymentId, declined.token);
    await onChargilyPage(declinedUrl, { ...EDAHABIA, cardNumber: "4000000000000002" });
    expect(await checkoutOf(declinedUrl)).toMatchObject({ status: "failed" });
    expect(await statusCodeOf(merchant, declined.paymentId)).toBe(3);

    const canceled = await proceedWithChargily(merchant);
    await onChargilyPage(await pressPay(canceled.paymentId, canceled.token), { action: "cancel" });
    await returnFromRedirect(await getDb(), canceled);
    expect(await statusCodeOf(merchant, canceled.paymentId)).toBe(3);
  });

  it("answers a return while Chargily is down with the payment waiting; settles it once when back", async () => {
    const merchant = await createMerchant();
    chargilyFaults.webhook = "none";
    const { paymentId, token } = await proceedWithChargily(merchant);
    await onChargilyPage(await pressPay(paymentId, token), EDAHABIA);
    chargilyFaults.mode = "down";
    expect((await returnFromRedirect(await getDb(), { paymentId, token })).kind).toBe("unavailable");
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    chargilyFaults.mode = "none";
    await reconcileRedirectPayments(await getDb(), { paymentId, now: new Date(Date.now() + 60_000) });
    await returnFromRedirect(await getDb(), { paymentId, token });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("leaves Pay to press again while Chargily is down (503); creates one checkout when it is back", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithChargily(merchant);
    chargilyFaults.mode = "down";
    expect((await payWithRedirect(await getDb(), { paymentId, token, locale: "en" })).kind).toBe("unavailable");
    chargilyFaults.mode = "none";
    const checkoutUrl = await pressPay(paymentId, token);
    expect(checkoutUrl).toMatch(/\/checkout\/[0-9a-f]{26}$/);
    const registrations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "register")));
    expect(registrations.map((operation) => operation.status)).toEqual(["succeeded"]);
  });

  it("answers a refund 409: refund in Chargily's dashboard (no API for it); the console says so too", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithChargily(merchant);
    await onChargilyPage(await pressPay(paymentId, token), EDAHABIA);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    const refused = await refund(api, merchant, paymentId, { description: "one item back" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe("invalid_state");
    expect(refused.body.message).toMatch(/Chargily Pay dashboard/);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    // The console offers no Refund button and says the same.
    const [service] = await (await getDb()).select().from(services).where(eq(services.code, merchant.service));
    const detail = await getPaymentDetail(await getDb(), { service: service as ServiceContext, paymentId });
    expect(detail).toMatchObject({ allows: { refund: false }, refundsAtProvider: true, method: { kind: "chargily" } });
  });

  it("expires the checkout at Chargily with its intent: a buyer still on its page cannot pay it", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithChargily(merchant);
    const checkoutUrl = await pressPay(paymentId, token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(3);
    await reconcileOperationsLater(paymentId);
    expect(await checkoutOf(checkoutUrl)).toMatchObject({ status: "expired" });
    const release = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "release")));
    expect(release).toMatchObject([{ provider: "chargily", status: "succeeded" }]);
    // The buyer presses Pay on Chargily's page after: sent back, nothing paid.
    const answer = await redirectSimulatorMount("chargily").handle(
      new Request(checkoutUrl, { method: "POST", body: new URLSearchParams(EDAHABIA) }),
    );
    expect(answer.status).toBe(303);
    expect(await checkoutOf(checkoutUrl)).toMatchObject({ status: "expired" });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired", capturedMinor: 0 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("keeps an intent expired though paid later at Chargily; the close says to refund in the dashboard", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithChargily(merchant);
    const checkoutUrl = await pressPay(paymentId, token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await onChargilyPage(checkoutUrl, EDAHABIA);
    await returnFromRedirect(await getDb(), { paymentId, token });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired", capturedMinor: 0 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
    // Chargily cannot give it back through its API: the expiry's close fails saying where the merchant refunds it.
    const operations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(eq(providerOperations.paymentId, paymentId));
    expect(operations.map((operation) => [operation.kind, operation.status, operation.resultCode]).sort()).toEqual([
      ["register", "succeeded", null],
      ["release", "failed", "chargily_paid_after_expiry"],
    ]);
  });

  it("sends the checkout page's notification straight to the domain call in the test process", async () => {
    const merchant = await createMerchant();
    const { paymentId } = await proceedWithChargily(merchant);
    expect(
      (
        await notifyRedirect(await getDb(), {
          paymentId: "00000000-0000-0000-0000-000000000000",
          body: "{}",
          headers: new Headers(),
        })
      ).kind,
    ).toBe("unknown_payment");
    expect((await notifyRedirect(await getDb(), { paymentId, body: "{}", headers: new Headers() })).kind).toBe(
      "rejected",
    );
  });
});
