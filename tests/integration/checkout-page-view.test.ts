import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { getCheckoutPageView } from "@/lib/hosted/views/checkout-page-view";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { createMerchant } from "../support/factories";
import { advanceClock, createIntent, payWithOtp, paymentRow, proceedToOtp, tokenOf } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
let merchant: OnboardedMerchant;

async function viewOf(intent: { paymentId: string }, query: Record<string, string> = {}) {
  const token = tokenOf((intent as unknown as { checkoutUrl: string }).checkoutUrl);
  return getCheckoutPageView(await getDb(), {
    locale: "en",
    paymentId: intent.paymentId,
    query: hostedPageQuery({ token, ...query }),
  });
}

beforeAll(async () => {
  merchant = await createMerchant();
});

describe("the checkout page", () => {
  it("offers the methods enabled for the country, wallet first, with the way back to the shop", async () => {
    const intent = await createIntent(api, merchant);
    const view = await viewOf(intent, { returnUrl: "https://shop.example/cart" });
    if (view.kind !== "render") throw new Error(view.kind);
    expect(view).toMatchObject({ mode: "choose", merchantName: merchant.name, amount: 1500, currency: "DZD" });
    expect(view.form).toMatchObject({
      methods: ["WALLET_V2", "CARD_PROVIDER", "SATIM", "CHARGILY"],
      returnUrl: "https://shop.example/cart",
      notice: null,
    });
    expect(view.shopLink).toBe(`https://shop.example/cart?paymentId=${intent.paymentId}&statusCode=1`);
  });

  it("is not found for a wrong token", async () => {
    const intent = await createIntent(api, merchant);
    const view = await getCheckoutPageView(await getDb(), {
      locale: "en",
      paymentId: intent.paymentId,
      query: hostedPageQuery({ token: "f".repeat(64) }),
    });
    expect(view).toEqual({ kind: "not_found" });
  });

  it("sends a QR_CODE intent straight to its QR page, proceeding it with the wallet", async () => {
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const view = await viewOf(intent);
    expect(view).toMatchObject({
      kind: "redirect",
      location: expect.stringMatching(new RegExp(`^/en/pay/qr/${intent.paymentId}\\?token=`)),
    });
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "PROCESSING", paymentMethodCode: "WALLET_V2" });
  });

  it("goes on to the step a payment is already at", async () => {
    const intent = await createIntent(api, merchant);
    await proceedToOtp(api, merchant, intent.paymentId);
    expect(await viewOf(intent)).toMatchObject({
      kind: "redirect",
      location: expect.stringMatching(new RegExp(`^/en/pay/otp/${intent.paymentId}\\?`)),
    });
  });

  it("says a finished payment is finished, with the way to its outcome", async () => {
    const intent = await createIntent(api, merchant);
    await payWithOtp(api, merchant, intent.paymentId);
    const view = await viewOf(intent);
    expect(view).toMatchObject({
      kind: "render",
      mode: "finished",
      form: null,
      outcomeLink: expect.stringMatching(new RegExp(`^/en/pay/return/${intent.paymentId}\\?`)),
    });
  });

  it("says an expired intent expired, offering no method", async () => {
    const shop = await createMerchant();
    const intent = await createIntent(api, shop);
    await advanceClock(api, shop, 31 * 60);
    expect(await viewOf(intent)).toMatchObject({ kind: "render", mode: "expired", form: null });
  });
});
