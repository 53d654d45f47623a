import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { paymentMethodCatalog, payments } from "@/lib/db/schema";
import { continueCheckoutForm } from "@/lib/hosted/checkout-form";
import { submitPaymentLinkForm } from "@/lib/hosted/payment-link-form";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { createIntent, paymentRow, serviceIdOf, tokenOf } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
let merchant: OnboardedMerchant;

async function newLink(body: object): Promise<string> {
  const response = await api.post(
    "/api/v1/payment-links",
    { title: "Bag", currency: "DZD", countryCode: "DZA", ...body },
    clientAuth(merchant),
  );
  return response.body.data.id;
}
const submit = async (linkId: string, fields: Record<string, string>, clientAddress: string | null = "192.0.2.10") =>
  submitPaymentLinkForm({ db: await getDb(), locale: "fr", linkId, fields, clientAddress });

beforeAll(async () => {
  merchant = await createMerchant();
});

describe("the link page's form", () => {
  it("sends the buyer back with what they typed and what to fix", async () => {
    const linkId = await newLink({ minAmount: 100 });
    const location = new URL(
      await submit(linkId, { amount: "50", phone: "0555", method: "CARD_PROVIDER" }),
      "http://gateway.test",
    );
    expect(location.pathname).toBe(`/fr/l/${linkId}`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      amount: "50",
      phone: "0555",
      method: "CARD_PROVIDER",
      errors: "phone:format,amount:below_min",
    });
  });

  it("starts no payment with no method enabled for the link's country: the buyer goes back to its page", async () => {
    const shop = await createMerchant();
    const response = await api.post(
      "/api/v1/payment-links",
      { title: "Bag", currency: "DZD", countryCode: "DZA", amount: 25, reusable: false },
      clientAuth(shop),
    );
    const linkId = response.body.data.id as string;
    const db = await getDb();
    await db
      .update(paymentMethodCatalog)
      .set({ enabled: false })
      .where(and(eq(paymentMethodCatalog.serviceId, await serviceIdOf(shop)), eq(paymentMethodCatalog.country, "DZA")));
    const location = await submitPaymentLinkForm({
      db,
      locale: "fr",
      linkId,
      fields: { phone: randomPhone(), method: "WALLET_V2" },
      clientAddress: "192.0.2.10",
    });
    expect(location).toBe(`/fr/l/${linkId}`);
    const started = await db
      .select({ id: payments.id })
      .from(payments)
      .where(sql`${payments.metaData} ->> 'paymentLinkId' = ${linkId}`);
    expect(started).toEqual([]);
  });

  it("goes on to the OTP page for the wallet and to the card page for a card, as the checkout does", async () => {
    const linkId = await newLink({ amount: 25 });
    expect(await submit(linkId, { phone: randomPhone(), method: "WALLET_V2" })).toMatch(
      /^\/fr\/pay\/otp\/[0-9a-f-]{36}\?token=[0-9a-f]{64}$/,
    );
    expect(await submit(linkId, { phone: randomPhone(), method: "CARD_PROVIDER" })).toMatch(
      /^\/fr\/pay\/card\/[0-9a-f-]{36}\?token=/,
    );
  });

  it("a double submit of one page view sends one OTP: the second post goes on with the same payment", async () => {
    const linkId = await newLink({ amount: 25 });
    const fields = { phone: randomPhone(), method: "WALLET_V2", attempt: "01KB0000000000000000000002" };
    const first = await submit(linkId, fields);
    const paymentId = first.split("/")[4]!.split("?")[0]!;
    expect(first).toMatch(/^\/fr\/pay\/otp\//);
    expect(await submit(linkId, fields)).toMatch(new RegExp(`^/fr/pay/checkout/${paymentId}\\?token=`));
  });

  it("tells a single-use link's second buyer to wait; sends anyone to the 410 page once it is closed", async () => {
    const linkId = await newLink({ amount: 25, reusable: false });
    const phone = randomPhone();
    const first = await submit(linkId, { phone, method: "WALLET_V2" });
    expect(first).toMatch(/\/fr\/pay\/otp\//);
    // The same buyer again: their own payment's checkout, which goes on to its OTP page.
    const paymentId = first.split("/")[4]!.split("?")[0]!;
    expect(await submit(linkId, { phone, method: "WALLET_V2" })).toMatch(
      new RegExp(`^/fr/pay/checkout/${paymentId}\\?token=`),
    );
    expect(
      new URL(
        await submit(linkId, { phone: randomPhone(), method: "WALLET_V2" }),
        "http://gateway.test",
      ).searchParams.get("errors"),
    ).toBe("form:busy");
    await api.post(`/api/v1/payment-links/${linkId}/deactivate`, {}, clientAuth(merchant));
    expect(await submit(linkId, { phone: randomPhone(), method: "WALLET_V2" })).toBe(`/fr/l/${linkId}/closed`);
  });
});

describe("the checkout page's form", () => {
  it("asks for a method when none was chosen, and proceeds nothing", async () => {
    const intent = await createIntent(api, merchant);
    const token = tokenOf((intent as unknown as { checkoutUrl: string }).checkoutUrl);
    const location = await continueCheckoutForm({
      db: await getDb(),
      locale: "ar",
      paymentId: intent.paymentId,
      fields: { token, returnUrl: "https://shop.example/r" },
    });
    expect(location).toBe(
      `/ar/pay/checkout/${intent.paymentId}?token=${token}` +
        `&returnUrl=${encodeURIComponent("https://shop.example/r")}&notice=choose_method`,
    );
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
    const onward = await continueCheckoutForm({
      db: await getDb(),
      locale: "ar",
      paymentId: intent.paymentId,
      fields: { token, method: "WALLET_V2", returnUrl: "https://shop.example/r" },
    });
    expect(onward).toBe(
      `/ar/pay/otp/${intent.paymentId}?token=${token}&returnUrl=${encodeURIComponent("https://shop.example/r")}`,
    );
  });
});

describe("the link page's rate limits: nobody can block a link", { timeout: 120_000 }, () => {
  const errorsOf = (location: string) => new URL(location, "http://gateway.test").searchParams.get("errors");
  // Without a method the start stops at the checkout page: a payment is created, nothing sent.
  const validStart = (phone = randomPhone()) => ({ phone });

  it("leaves a link open to a real buyer after 100 invalid posts, from one client or from a hundred", async () => {
    const linkId = await newLink({ amount: 1 });
    const fromOne = [];
    for (let index = 0; index < 100; index += 1)
      fromOne.push(errorsOf(await submit(linkId, { phone: "bad" }, "198.51.100.1")));
    // That one client is braked at its own 20 a minute...
    expect(fromOne.slice(0, 20).every((problem) => problem === "phone:format")).toBe(true);
    expect(fromOne.at(-1)).toBe("form:too_many");
    // ... and junk from many addresses costs the link nothing either.
    for (let index = 0; index < 100; index += 1)
      expect(errorsOf(await submit(linkId, { phone: "bad" }, `203.0.113.${index}`))).toBe("phone:format");
    expect(await submit(linkId, { phone: randomPhone(), method: "WALLET_V2" }, "198.51.100.2")).toMatch(
      /^\/fr\/pay\/otp\//,
    );
  });

  it("limits one client's valid starts without closing the link to others", async () => {
    const linkId = await newLink({ amount: 1 });
    const starts = [];
    for (let index = 0; index < 25; index += 1)
      starts.push(errorsOf(await submit(linkId, validStart(), "198.51.100.3")));
    expect(starts.slice(0, 20).every((problem) => problem === null)).toBe(true);
    expect(starts.slice(20).every((problem) => problem === "form:too_many")).toBe(true);
    expect(await submit(linkId, { phone: randomPhone(), method: "WALLET_V2" }, "198.51.100.4")).toMatch(
      /^\/fr\/pay\/otp\//,
    );
  });

  it("limits each phone on its own: one number cannot be sent payment after payment", async () => {
    const linkId = await newLink({ amount: 1 });
    const phone = randomPhone();
    const starts = [];
    for (let index = 0; index < 7; index += 1)
      starts.push(errorsOf(await submit(linkId, validStart(phone), `198.51.101.${index}`)));
    expect(starts).toEqual([null, null, null, null, null, "form:too_many", "form:too_many"]);
    expect(errorsOf(await submit(linkId, validStart(), "198.51.101.9"))).toBeNull();
  });

  it("still brakes a script paying one link from many addresses: past 60 a minute the page asks to wait", async () => {
    const linkId = await newLink({ amount: 1 });
    const starts = [];
    // A quota of 60 a minute comes back at one a second: 70 in a few seconds cannot all pass.
    for (let index = 0; index < 70; index += 1)
      starts.push(errorsOf(await submit(linkId, validStart(), `198.51.102.${index}`)));
    expect(starts.slice(0, 60).every((problem) => problem === null)).toBe(true);
    expect(starts.at(-1)).toBe("form:too_many");
  });
});
