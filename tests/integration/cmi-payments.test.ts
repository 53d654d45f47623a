import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { providerOperations } from "@/lib/db/schema";
import { payWithRedirect, returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { reconcileRedirectPayments } from "@/lib/payments/operations/reconcile-redirect-payments";
import { redirectSimulatorMount } from "@/lib/providers/simulator-mount";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import {
  GET as redirectReturn,
  POST as redirectPostedReturn,
} from "@/app/[locale]/pay/redirect/[paymentId]/return/route";
import { POST as redirectCallback } from "@/app/api/redirect-callbacks/[method]/route";
import {
  callbackSender,
  cmiFaults,
  CMI_SANDBOX_STORE,
  sendCmiCallback,
  simulatorHash,
} from "@/simulators/cmi/cmi-simulator";
import { toGateway } from "@/simulators/in-gateway";
import { cmiOrders } from "@/simulators/cmi/cmi-tables";
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
  cmiFaults.mode = "none";
  cmiFaults.callback = "once";
});

/** A MAD payment proceeded with CMI by the merchant's server. */
async function proceedWithCmi(
  merchant: OnboardedMerchant,
  options: { amount?: number; captureMethod?: "DIRECT" | "RESERVATION" } = {},
) {
  const intent = await createIntent(api, merchant, {
    amount: options.amount ?? 123.45,
    actionCurrencyCode: "MAD",
    actionCountryCode: "MAR",
    captureMethod: options.captureMethod,
  });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CMI" });
  expect(proceeded.status).toBe(200);
  return { paymentId: intent.paymentId, token: tokenOf(proceeded.body.data.metadata.payUrl), proceeded };
}

/** The signed form the page before CMI's posts when the buyer presses Pay. */
async function signedForm(paymentId: string, token: string) {
  const started = await payWithRedirect(await getDb(), { paymentId, token, locale: "en" });
  if (started.kind !== "go" || !started.form) throw new Error(`Pay led to ${started.kind}`);
  return started.form;
}

const post = (url: string, fields: Record<string, string>) =>
  redirectSimulatorMount("cmi").handle(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  );

/**
 * The buyer's browser posts the form to CMI's gate, then the card on CMI's page; answers CMI's page and where
 * CMI sends the browser.
 */
async function onCmiPage(form: { action: string; fields: Record<string, string> }, card: Record<string, string>) {
  const page = await post(form.action, form.fields);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, "&");
  const answer = await post(new URL(action, form.action).toString(), card);
  const back = await answer.text();
  expect(answer.status, back).toBe(200);
  // CMI's page posts its signed answer fields with the buyer to okUrl / failUrl.
  const location = /<form method="post" action="([^"]+)"/.exec(back)![1]!.replace(/&#38;/g, "&");
  expect(back).toContain('name="HASH"');
  return { html, location };
}

const VISA = { action: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

const statusCodeOf = async (merchant: OnboardedMerchant, paymentId: string): Promise<number> =>
  (await check(api, paymentId, serverHeaders(merchant))).body.data.statusCode;

async function orderOf(oid: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(cmiOrders)
    .where(and(eq(cmiOrders.clientId, CMI_SANDBOX_STORE.clientId), eq(cmiOrders.oid, oid)));
  return row!;
}

const callback = (body: string) =>
  redirectCallback(
    new Request("http://gateway.test/api/redirect-callbacks/cmi", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
    {
      params: Promise.resolve({ method: "cmi" }),
    },
  );

/** A CMI reservation the buyer authorized and the gateway settled as PRE_AUTHORIZED (by CMI's callback). */
async function authorizedReservation(merchant: OnboardedMerchant, amount = 10.5) {
  const { paymentId, token } = await proceedWithCmi(merchant, { amount, captureMethod: "RESERVATION" });
  const form = await signedForm(paymentId, token);
  await onCmiPage(form, VISA);
  expect(await statusCodeOf(merchant, paymentId)).toBe(13);
  return { paymentId, token, oid: form.fields.oid! };
}

describe("CMI (contract 15, issue 44)", () => {
  it("is listed for MAR as a REDIRECT method, and not elsewhere", async () => {
    const merchant = await createMerchant();
    const morocco = await api.get("/api/v1/payment-methods/available?countryCode=MA", clientAuth(merchant));
    const cmi = morocco.body.data.find((item: { code: string }) => item.code === "CMI");
    expect(cmi).toMatchObject({ archetype: "REDIRECT" });
    expect(cmi.image).toMatch(/\/payment-methods\/cmi\.svg$/);
    const tunisia = await api.get("/api/v1/payment-methods/available?countryCode=TN", clientAuth(merchant));
    expect(tunisia.body.data.map((item: { code: string }) => item.code)).not.toContain("CMI");
  });

  it("signs the 3D Pay form server-side: ver3 hash (sorted caseless, escaped, key last); MAD 123.45, 504", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithCmi(merchant, { amount: 123.45 });
    const form = await signedForm(paymentId, token);
    expect(form.action).toMatch(/\/api\/cmi-sandbox\/fim\/est3Dgate$/);
    const { fields } = form;
    expect(Object.keys(fields).sort()).toEqual(
      [
        "HASH",
        "TranType",
        "amount",
        "callbackUrl",
        "clientid",
        "currency",
        "description",
        "encoding",
        "failUrl",
        "hashAlgorithm",
        "lang",
        "oid",
        "okUrl",
        "refreshtime",
        "rnd",
        "shopurl",
        "storetype",
      ].sort(),
    );
    expect(fields).toMatchObject({
      clientid: "600000001",
      amount: "123.45",
      currency: "504",
      TranType: "PreAuth",
      storetype: "3D_PAY_HOSTING",
      hashAlgorithm: "ver3",
      encoding: "UTF-8",
      lang: "en",
    });
    expect(fields.oid).toMatch(/^[0-9A-F]{20}D$/);
    expect(fields.okUrl).toBe(fields.failUrl);
    expect(fields.okUrl).toContain(`/en/pay/redirect/${paymentId}/return?token=`);
    expect(fields.callbackUrl).toMatch(/\/api\/redirect-callbacks\/cmi$/);
    // The store key never leaves the server: not in any field.
    expect(JSON.stringify(fields)).not.toContain("Sandbox|Store");

    // CMI's documented order: names compared without case (TranType among the t's), hash and encoding left out.
    const order = [
      "amount",
      "callbackUrl",
      "clientid",
      "currency",
      "description",
      "failUrl",
      "hashAlgorithm",
      "lang",
      "oid",
      "okUrl",
      "refreshtime",
      "rnd",
      "shopurl",
      "storetype",
      "TranType",
    ];
    const escaped = order.map((name) => fields[name]!.replace(/\\/g, "\\\\").replace(/\|/g, "\\|"));
    const plain = `${escaped.join("|")}|Sandbox\\|Store\\\\Key1`;
    expect(fields.HASH).toBe(createHash("sha512").update(plain, "utf8").digest("base64"));
    expect(fields.HASH).toBe(simulatorHash(fields, CMI_SANDBOX_STORE.storeKey));

    const { html } = await onCmiPage(form, VISA);
    expect(html).toContain("123.45 MAD");
    for (const label of ["Card number", "Expiry date", "CVC", "Pay", "Cancel"]) expect(html).toContain(label);
    // The callback came before the buyer's return: the gateway captured the hold (PostAuth) and answered APPROVED.
    expect(await orderOf(fields.oid!)).toMatchObject({
      status: "C",
      amountMinor: 12345,
      capturedMinor: 12345,
      callbackAnswers: ["APPROVED"],
    });
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({
      state: "SUCCEEDED",
      amountMinor: 12345,
      capturedMinor: 12345,
      providerOrderId: fields.oid,
    });
    expect(row.approvalCode).toMatch(/^\d{6}$/);
    await returnFromRedirect(await getDb(), { paymentId, token });
    const checked = await check(api, paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ statusCode: 2, amount: 123.45 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("refuses and logs a wrong-hash callback; forged or replayed callbacks and returns change nothing", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithCmi(merchant);
    const form = await signedForm(paymentId, token);
    const forgedFields = { ...form.fields, ProcReturnCode: "00", Response: "Approved", AuthCode: "123456" };
    const forged = await callback(new URLSearchParams({ ...forgedFields, HASH: "bm90IHRoZSBoYXNo" }).toString());
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe("FAILURE");
    // Signed with another key: refused too.
    const otherKey = await callback(
      new URLSearchParams({ ...forgedFields, HASH: simulatorHash(forgedFields, "guessed-key") }).toString(),
    );
    expect(await otherKey.text()).toBe("FAILURE");
    const unknown = await callback(new URLSearchParams({ ...forgedFields, oid: "NOSUCHORDER" }).toString());
    expect(unknown.status).toBe(404);
    const query = `token=${token}&ProcReturnCode=00&Response=Approved`;
    const returned = `http://gateway.test/en/pay/redirect/${paymentId}/return?${query}`;
    expect(
      (await redirectReturn(new Request(returned), { params: Promise.resolve({ locale: "en", paymentId }) })).status,
    ).toBe(303);
    // CMI posts the buyer back with its fields: the post is read as a return, its fields never.
    const posted = await redirectPostedReturn(
      new Request(`http://gateway.test/en/pay/redirect/${paymentId}/return?token=${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...forgedFields, HASH: "bm90IHRoZSBoYXNo" }).toString(),
      }),
      { params: Promise.resolve({ locale: "en", paymentId }) },
    );
    expect(posted.status).toBe(303);
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    expect(await notificationsOf(paymentId)).toEqual([]);

    // The real one, sent twice by CMI, then replayed by anyone: settled once.
    cmiFaults.callback = "twice";
    await onCmiPage(form, VISA);
    expect((await orderOf(form.fields.oid!)).callbackAnswers).toEqual(["APPROVED", "APPROVED"]);
    expect(
      await sendCmiCallback(
        await getDb(),
        { clientId: CMI_SANDBOX_STORE.clientId, oid: form.fields.oid! },
        callbackSender(toGateway),
      ),
    ).toBe("APPROVED");
    await Promise.all([
      returnFromRedirect(await getDb(), { paymentId, token }),
      returnFromRedirect(await getDb(), { paymentId, token }),
    ]);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
    expect((await orderOf(form.fields.oid!)).capturedMinor).toBe(12345);
  });

  it("reconciles a lost buyer, callback late (then a no-op); a declined card and Cancel fail (3)", async () => {
    const merchant = await createMerchant();
    cmiFaults.callback = "held";
    const { paymentId, token } = await proceedWithCmi(merchant);
    const form = await signedForm(paymentId, token);
    await onCmiPage(form, VISA);
    expect(await orderOf(form.fields.oid!)).toMatchObject({ status: "A" });
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    await reconcileRedirectPayments(await getDb(), { paymentId });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect(await orderOf(form.fields.oid!)).toMatchObject({ status: "C", capturedMinor: 12345 });
    expect(
      await sendCmiCallback(
        await getDb(),
        { clientId: CMI_SANDBOX_STORE.clientId, oid: form.fields.oid! },
        callbackSender(toGateway),
      ),
    ).toBe("APPROVED");
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
    cmiFaults.callback = "once";

    const declined = await proceedWithCmi(merchant);
    const declinedForm = await signedForm(declined.paymentId, declined.token);
    await onCmiPage(declinedForm, { ...VISA, cardNumber: "4000000000000002" });
    expect((await orderOf(declinedForm.fields.oid!)).callbackAnswers).toEqual(["APPROVED"]);
    expect(await statusCodeOf(merchant, declined.paymentId)).toBe(3);

    const canceled = await proceedWithCmi(merchant);
    const { location } = await onCmiPage(await signedForm(canceled.paymentId, canceled.token), { action: "cancel" });
    expect(location).toContain(`/pay/redirect/${canceled.paymentId}/return`);
    await returnFromRedirect(await getDb(), canceled);
    expect(await statusCodeOf(merchant, canceled.paymentId)).toBe(3);
  });

  it("answers ACTION=POSTAUTH if CMI's API is down: CMI captures the DIRECT hold; the return settles", async () => {
    const merchant = await createMerchant();
    const { paymentId, token } = await proceedWithCmi(merchant, { amount: 42 });
    const form = await signedForm(paymentId, token);
    cmiFaults.mode = "api_down";
    await onCmiPage(form, VISA);
    expect(await orderOf(form.fields.oid!)).toMatchObject({
      status: "C",
      capturedMinor: 4200,
      callbackAnswers: ["ACTION=POSTAUTH"],
    });
    expect(await statusCodeOf(merchant, paymentId)).toBe(12);
    cmiFaults.mode = "none";
    await returnFromRedirect(await getDb(), { paymentId, token });
    await reconcileRedirectPayments(await getDb(), { paymentId });
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("reserves (PreAuth APPROVED), captures part by PostAuth, refunds by Credit in part and in full", async () => {
    const merchant = await createMerchant();
    const { paymentId, oid } = await authorizedReservation(merchant, 10.5);
    expect(oid).toMatch(/R$/);
    expect(await orderOf(oid)).toMatchObject({
      status: "A",
      amountMinor: 1050,
      capturedMinor: 0,
      callbackAnswers: ["APPROVED"],
    });

    expect((await capture(api, merchant, paymentId, { amount: 7.25 })).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect(await orderOf(oid)).toMatchObject({ status: "C", capturedMinor: 725 });

    expect((await refund(api, merchant, paymentId, { description: "one item", amount: 1.01 })).status).toBe(200);
    expect((await refund(api, merchant, paymentId, { description: "another", amount: 2 })).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(16);
    expect((await refund(api, merchant, paymentId, { description: "the rest" })).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(4);
    expect(await orderOf(oid)).toMatchObject({ refundedMinor: 725 });
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual(
      expect.arrayContaining(["payment.pre_authorized", "payment.captured"]),
    );
  });

  it("settles a partial Credit CMI made after the gateway stopped waiting, and credits nothing twice", async () => {
    const merchant = await createMerchant();
    const { paymentId, oid } = await authorizedReservation(merchant, 10.5);
    expect((await capture(api, merchant, paymentId, { amount: 10.5 })).status).toBe(200);
    // Slower than the gateway waits (10 s): the refund answers unavailable, CMI credits anyway.
    cmiFaults.mode = "slow";
    cmiFaults.slowMs = 10_500;
    const lost = await refund(
      api,
      merchant,
      paymentId,
      { description: "lost answer", amount: 4 },
      { "Idempotency-Key": `cmi-refund-lost-${paymentId}` },
    );
    expect(lost.status).toBe(503);
    cmiFaults.mode = "none";
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await orderOf(oid)).toMatchObject({ refundedMinor: 400 });
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    expect(await orderOf(oid)).toMatchObject({ status: "C", refundedMinor: 400 });
    expect(await paymentRow(paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 400 });
  }, 30_000);

  it("releases a pre-authorization through Void", async () => {
    const merchant = await createMerchant();
    const { paymentId, oid } = await authorizedReservation(merchant);
    expect((await release(api, merchant, paymentId)).status).toBe(200);
    expect(await statusCodeOf(merchant, paymentId)).toBe(10);
    expect(await orderOf(oid)).toMatchObject({ status: "V", capturedMinor: 0 });
  });

  it("at expiry voids a later hold, and asks Void of an unpaid reservation, which finds nothing held", async () => {
    const merchant = await createMerchant();
    const late = await proceedWithCmi(merchant, { captureMethod: "RESERVATION" });
    const lateForm = await signedForm(late.paymentId, late.token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await onCmiPage(lateForm, VISA);
    await reconcileRedirectPayments(await getDb(), { paymentId: late.paymentId });
    await reconcileOperationsLater(late.paymentId);
    expect(await paymentRow(late.paymentId)).toMatchObject({
      state: "FAILED",
      failureReason: "expired",
      capturedMinor: 0,
    });
    expect(await orderOf(lateForm.fields.oid!)).toMatchObject({ status: "V" });
    expect((await notificationsOf(late.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);

    const unpaid = await proceedWithCmi(merchant, { captureMethod: "RESERVATION" });
    await signedForm(unpaid.paymentId, unpaid.token);
    expect((await advanceClock(api, merchant, 31 * 60)).status).toBe(200);
    await reconcileRedirectPayments(await getDb(), { paymentId: unpaid.paymentId });
    await reconcileOperationsLater(unpaid.paymentId);
    expect(await paymentRow(unpaid.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    const operations = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(eq(providerOperations.paymentId, unpaid.paymentId));
    expect(operations.find((operation) => operation.kind === "release")).toMatchObject({
      status: "succeeded",
      provider: "cmi",
    });
  });

  it("answers 503 while CMI is down and settles the capture once when it is back", async () => {
    const merchant = await createMerchant();
    const { paymentId, oid } = await authorizedReservation(merchant, 3.33);
    cmiFaults.mode = "down";
    const refused = await capture(
      api,
      merchant,
      paymentId,
      { amount: 3.33 },
      { "Idempotency-Key": `cmi-down-${paymentId}` },
    );
    expect(refused.status).toBe(503);
    expect(refused.body.error.name).toBe("provider_unavailable");
    cmiFaults.mode = "none";
    await reconcileOperationsLater(paymentId);
    await reconcileOperationsLater(paymentId);
    expect(await statusCodeOf(merchant, paymentId)).toBe(2);
    expect(await orderOf(oid)).toMatchObject({ status: "C", capturedMinor: 333 });
    expect((await notificationsOf(paymentId)).filter((n) => n.type === "payment.captured")).toHaveLength(1);
  });

  it("refuses an amount CMI cannot take and a currency other than MAD (400 naming the field)", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, {
      amount: 0.5,
      actionCurrencyCode: "MAD",
      actionCountryCode: "MAR",
    });
    const refused = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CMI" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("amount");
  });
});
