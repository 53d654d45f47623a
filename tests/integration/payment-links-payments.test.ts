import { describe, expect, it, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { startLinkPayment } from "@/lib/payment-links/start-link-payment";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { proceedFromCheckout } from "@/lib/payments/hosted/proceed-from-checkout";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { advanceClock, notificationsOf, paymentRow } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
let merchant: OnboardedMerchant;

async function newLink(body: object, who = merchant): Promise<string> {
  const response = await api.post(
    "/api/v1/payment-links",
    { title: "Bag", currency: "DZD", countryCode: "DZA", ...body },
    clientAuth(who),
  );
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body.data.id;
}
const linkOf = async (id: string) => (await api.get(`/api/v1/payment-links/${id}`, clientAuth(merchant))).body.data;

/** A buyer presses Continue on the link page, then pays by wallet with the sandbox code. */
async function payLink(linkId: string, entries: { amount?: string } = {}) {
  const db = await getDb();
  const started = await startLinkPayment(db, { linkId, phone: randomPhone(), amount: entries.amount });
  if (started.outcome !== "created") throw new Error(`link payment not started: ${JSON.stringify(started)}`);
  const proceeded = await proceedFromCheckout(db, {
    paymentId: started.paymentId,
    token: started.token,
    code: "WALLET_V2",
    locale: "en",
  });
  expect(proceeded).toEqual({ outcome: "proceeded", next: "otp" });
  const result = await submitPaymentOtp(db, { paymentId: started.paymentId, token: started.token, code: "123456" });
  return { ...started, statusCode: result.statusCode };
}

beforeAll(async () => {
  merchant = await createMerchant();
});

describe("a link's payments", () => {
  it("are ordinary intents naming the link; notifications carry paymentLinkId; the link counts them", async () => {
    const linkId = await newLink({ amount: 2500, metaData: { sku: "BAG-1" } });
    const paid = await payLink(linkId);
    expect(paid.statusCode).toBe(2);
    const row = await paymentRow(paid.paymentId);
    expect(row).toMatchObject({
      amountMinor: 250_000,
      currency: "DZD",
      country: "DZA",
      state: "SUCCEEDED",
      metaData: { sku: "BAG-1", paymentLinkId: linkId },
    });
    const [succeeded] = await notificationsOf(paid.paymentId);
    expect(succeeded).toMatchObject({
      type: "payment.succeeded",
      data: { paymentId: paid.paymentId, amount: 2500, paymentLinkId: linkId },
    });
    // An intent created elsewhere names no link.
    expect(await linkOf(linkId)).toMatchObject({ paymentsCount: 1, succeededAmount: 2500, active: true });
  });

  it("takes an amount the buyer enters within the bounds, and says which bound an amount breaks", async () => {
    const db = await getDb();
    const linkId = await newLink({ minAmount: 100, maxAmount: 500.5 });
    const phone = randomPhone();
    const start = (amount: string | undefined) => startLinkPayment(db, { linkId, phone, amount });
    expect(await start("99.99")).toEqual({ outcome: "invalid", problems: [{ field: "amount", problem: "below_min" }] });
    expect(await start("500.51")).toEqual({
      outcome: "invalid",
      problems: [{ field: "amount", problem: "above_max" }],
    });
    expect(await start("")).toEqual({ outcome: "invalid", problems: [{ field: "amount", problem: "required" }] });
    expect(await start("12.345")).toEqual({ outcome: "invalid", problems: [{ field: "amount", problem: "format" }] });
    expect(await start("abc")).toEqual({ outcome: "invalid", problems: [{ field: "amount", problem: "format" }] });
    expect(await startLinkPayment(db, { linkId, phone: "0555", amount: "150" })).toEqual({
      outcome: "invalid",
      problems: [{ field: "phone", problem: "format" }],
    });
    expect(await startLinkPayment(db, { linkId, phone: "", amount: "" })).toEqual({
      outcome: "invalid",
      problems: [
        { field: "phone", problem: "required" },
        { field: "amount", problem: "required" },
      ],
    });
    const paid = await payLink(linkId, { amount: "500,50" });
    expect(paid.statusCode).toBe(2);
    expect((await paymentRow(paid.paymentId)).amountMinor).toBe(50_050);
    const atMin = await start("100");
    expect(atMin.outcome).toBe("created");
    // As an Arabic keyboard types it: Arabic-Indic digits and the Arabic decimal separator.
    const arabic = await startLinkPayment(db, { linkId, phone: "+٢١٣٥٥٥١٢٣٤٥٦", amount: "١٥٠٫٥" });
    if (arabic.outcome !== "created") throw new Error(JSON.stringify(arabic));
    expect(await paymentRow(arabic.paymentId)).toMatchObject({ amountMinor: 15_050 });
  });

  it("refuses more decimals than the currency has instead of dropping them: 1,500 DZD is not 1.50 DZD", async () => {
    const db = await getDb();
    const dinars = await newLink({});
    for (const typed of ["1,500", "10.000", "1.5000"]) {
      expect(await startLinkPayment(db, { linkId: dinars, phone: randomPhone(), amount: typed })).toEqual({
        outcome: "invalid",
        problems: [{ field: "amount", problem: "format" }],
      });
    }
    // TND has 3 decimals: 1,500 is one dinar and a half, as Tunisian prices are written.
    const tunisian = await newLink({ currency: "TND", countryCode: "TUN" });
    const started = await startLinkPayment(db, { linkId: tunisian, phone: "+21655123456", amount: "1,500" });
    if (started.outcome !== "created") throw new Error(JSON.stringify(started));
    expect(await paymentRow(started.paymentId)).toMatchObject({ amountMinor: 1_500, currency: "TND" });
    expect((await startLinkPayment(db, { linkId: tunisian, phone: "+21655123456", amount: "1,5001" })).outcome).toBe(
      "invalid",
    );
  });

  it("a double submit of the same page (one attempt) makes one intent; a new page view makes another", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 40 });
    const phone = randomPhone();
    const attempt = "01KB0000000000000000000000";
    const twice = await Promise.all(
      [1, 2].map(() => startLinkPayment(db, { linkId, phone, amount: undefined, attempt })),
    );
    const ids = twice.map((start) => ("paymentId" in start ? start.paymentId : start.outcome));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    const again = await startLinkPayment(db, { linkId, phone, amount: undefined, attempt });
    expect("paymentId" in again && again.paymentId).toBe(ids[0]);
    const other = await startLinkPayment(db, {
      linkId,
      phone,
      amount: undefined,
      attempt: "01KB0000000000000000000001",
    });
    expect("paymentId" in other && other.paymentId).not.toBe(ids[0]);
    // Once that payment failed, the same page view (the back button) starts a new one.
    const first = twice[0]!;
    if (first.outcome !== "created") throw new Error(JSON.stringify(first));
    await proceedFromCheckout(db, { paymentId: first.paymentId, token: first.token, code: "WALLET_V2", locale: "en" });
    for (let tries = 0; tries < 5; tries += 1)
      await submitPaymentOtp(db, { paymentId: first.paymentId, token: first.token, code: "000000" });
    expect((await paymentRow(first.paymentId)).state).toBe("FAILED");
    const retry = await startLinkPayment(db, { linkId, phone, amount: undefined, attempt });
    expect(retry.outcome).toBe("created");
    expect("paymentId" in retry && retry.paymentId).not.toBe(first.paymentId);
  });

  it("a deactivated or expired link takes no payment", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 10 });
    await api.post(`/api/v1/payment-links/${linkId}/deactivate`, {}, clientAuth(merchant));
    expect(await startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined })).toEqual({
      outcome: "closed",
      closure: "deactivated",
    });

    const shop = await createMerchant();
    const expiring = await newLink({ amount: 10, expiresAt: new Date(Date.now() + 60_000).toISOString() }, shop);
    await advanceClock(api, shop, 120);
    expect(await startLinkPayment(db, { linkId: expiring, phone: randomPhone(), amount: undefined })).toEqual({
      outcome: "closed",
      closure: "expired",
    });
    expect(
      await startLinkPayment(db, {
        linkId: "plink_00000000000000000000000000",
        phone: randomPhone(),
        amount: undefined,
      }),
    ).toEqual({ outcome: "not_found" });
  });
});

describe("a single-use link", () => {
  it("takes one payment when two buyers press Continue at once: the other waits, then finds it paid", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 75, reusable: false });
    const both = await Promise.all(
      [1, 2].map(() => startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined })),
    );
    expect(both.map((start) => start.outcome).sort()).toEqual(["busy", "created"]);
    const first = both.find((start) => start.outcome === "created")!;
    if (first.outcome !== "created") throw new Error("unreachable");
    await proceedFromCheckout(db, { paymentId: first.paymentId, token: first.token, code: "WALLET_V2", locale: "en" });
    expect(
      (await submitPaymentOtp(db, { paymentId: first.paymentId, token: first.token, code: "123456" })).statusCode,
    ).toBe(2);
    expect(await startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined })).toEqual({
      outcome: "closed",
      closure: "paid",
    });
    expect(await linkOf(linkId)).toMatchObject({ active: false, paymentsCount: 1, succeededAmount: 75 });
  });

  it("takes the same buyer back to their own open payment instead of making a second", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 75, reusable: false });
    const phone = randomPhone();
    const first = await startLinkPayment(db, { linkId, phone, amount: undefined });
    if (first.outcome !== "created") throw new Error(JSON.stringify(first));
    expect(await startLinkPayment(db, { linkId, phone, amount: undefined })).toEqual({
      outcome: "resumed",
      paymentId: first.paymentId,
      token: first.token,
    });
    expect((await startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined })).outcome).toBe("busy");
  });

  it("reads the buyer's phone typed with the home trunk 0 after the offered +213 as the same number", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 75, reusable: false });
    const first = await startLinkPayment(db, { linkId, phone: "+213555123456", amount: undefined });
    if (first.outcome !== "created") throw new Error(JSON.stringify(first));
    expect(await startLinkPayment(db, { linkId, phone: "+213 0555 12 34 56", amount: undefined })).toEqual({
      outcome: "resumed",
      paymentId: first.paymentId,
      token: first.token,
    });
  });

  it("opens again for the next buyer when the first one's payment fails", async () => {
    const db = await getDb();
    const linkId = await newLink({ amount: 75, reusable: false });
    const first = await startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined });
    if (first.outcome !== "created") throw new Error(JSON.stringify(first));
    await proceedFromCheckout(db, { paymentId: first.paymentId, token: first.token, code: "WALLET_V2", locale: "en" });
    for (let attempt = 0; attempt < 5; attempt += 1)
      await submitPaymentOtp(db, { paymentId: first.paymentId, token: first.token, code: "000000" });
    expect((await paymentRow(first.paymentId)).state).toBe("FAILED");
    expect((await startLinkPayment(db, { linkId, phone: randomPhone(), amount: undefined })).outcome).toBe("created");
  });
});
