import { describe, expect, it, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { proceedFromCheckout } from "@/lib/payments/hosted/proceed-from-checkout";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { createMerchant } from "../support/factories";
import {
  advanceClock,
  browserHeaders,
  createIntent,
  notificationsOf,
  payWithOtp,
  paymentRow,
  proceed,
  tokenOf,
} from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();
let merchant: OnboardedMerchant;

/** An intent and the token of its checkoutUrl, as create answers them. */
async function intentWithCheckout(overrides: Parameters<typeof createIntent>[2] = {}) {
  const intent = await createIntent(api, merchant, overrides);
  const { checkoutUrl } = intent as unknown as { checkoutUrl: string };
  return { ...intent, checkoutUrl, token: tokenOf(checkoutUrl) };
}

beforeAll(async () => {
  merchant = await createMerchant();
});

describe("create intent's checkoutUrl", () => {
  it("is the hosted checkout page under the payment's hosted token, no locale (the browser's language)", async () => {
    const intent = await intentWithCheckout();
    expect(new URL(intent.checkoutUrl).pathname).toBe(`/pay/checkout/${intent.paymentId}`);
    expect(intent.token).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the checkout page's Continue", () => {
  it("proceeds by wallet via the API's proceed: same state, status and notification as a browser's", async () => {
    const db = await getDb();
    const viaCheckout = await intentWithCheckout();
    const viaApi = await createIntent(api, merchant);
    expect(
      await proceedFromCheckout(db, {
        paymentId: viaCheckout.paymentId,
        token: viaCheckout.token,
        code: "WALLET_V2",
        locale: "fr",
      }),
    ).toEqual({
      outcome: "proceeded",
      next: "otp",
    });
    const apiProceed = await proceed(api, viaApi.paymentId, browserHeaders(merchant, viaApi.clientSecret));
    expect(apiProceed.body.data.statusCode).toBe(12);
    const [mine, theirs] = [await paymentRow(viaCheckout.paymentId), await paymentRow(viaApi.paymentId)];
    for (const field of ["state", "status", "paymentMethodCode", "platform"] as const)
      expect(mine[field]).toEqual(theirs[field]);
    expect(mine.locale).toBe("fr");

    expect(
      (await submitPaymentOtp(db, { paymentId: viaCheckout.paymentId, token: viaCheckout.token, code: "123456" }))
        .statusCode,
    ).toBe(2);
    await submitPaymentOtp(db, {
      paymentId: viaApi.paymentId,
      token: tokenOf(apiProceed.body.data.metadata.payUrl),
      code: "123456",
    });
    const [checkoutEvent] = await notificationsOf(viaCheckout.paymentId);
    const [apiEvent] = await notificationsOf(viaApi.paymentId);
    expect(checkoutEvent!.type).toBe(apiEvent!.type);
    expect(Object.keys(checkoutEvent!.data).sort()).toEqual(Object.keys(apiEvent!.data).sort());
    expect(checkoutEvent!.data).toMatchObject({ remoteStatusCode: 2, statusCode: 2, amount: 1500 });
  });

  it("proceeds by card to the card page: a trusted returnUrl becomes redirectUrl, another is ignored", async () => {
    const db = await getDb();
    const trusted = await intentWithCheckout();
    const returnUrl = "https://shop.example/order/7";
    expect(
      await proceedFromCheckout(db, {
        paymentId: trusted.paymentId,
        token: trusted.token,
        code: "CARD_PROVIDER",
        locale: "en",
        returnUrl,
      }),
    ).toEqual({
      outcome: "proceeded",
      next: "card",
    });
    expect(await paymentRow(trusted.paymentId)).toMatchObject({
      state: "REQUIRES_ACTION",
      paymentMethodCode: "CARD_PROVIDER",
      redirectUrl: returnUrl,
    });
    const foreign = await intentWithCheckout();
    await proceedFromCheckout(db, {
      paymentId: foreign.paymentId,
      token: foreign.token,
      code: "CARD_PROVIDER",
      locale: "en",
      returnUrl: "https://evil.example/x",
    });
    expect((await paymentRow(foreign.paymentId)).redirectUrl).toBeNull();
  });

  it("sends a QR_CODE intent to its QR page", async () => {
    const intent = await intentWithCheckout({ transactionType: "QR_CODE" });
    expect(
      await proceedFromCheckout(await getDb(), {
        paymentId: intent.paymentId,
        token: intent.token,
        code: "WALLET_V2",
        locale: "en",
      }),
    ).toEqual({
      outcome: "proceeded",
      next: "qr",
    });
    expect((await paymentRow(intent.paymentId)).state).toBe("PROCESSING");
  });

  it("refuses a wrong token, no method, an unknown method, and an intent no longer open", async () => {
    const db = await getDb();
    const intent = await intentWithCheckout();
    const attempt = (options: { token?: string; code?: string }) =>
      proceedFromCheckout(db, {
        paymentId: intent.paymentId,
        token: options.token ?? intent.token,
        code: options.code,
        locale: "en",
      });
    expect(await attempt({ token: "0".repeat(64), code: "WALLET_V2" })).toEqual({ outcome: "invalid_link" });
    expect(await attempt({})).toEqual({ outcome: "no_method_chosen" });
    expect(await attempt({ code: "CASH" })).toEqual({ outcome: "method_unavailable" });
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
    await payWithOtp(api, merchant, intent.paymentId);
    expect(await attempt({ code: "WALLET_V2" })).toEqual({ outcome: "not_open" });

    const shop = await createMerchant();
    const late = await createIntent(api, shop);
    await advanceClock(api, shop, 31 * 60);
    expect(
      await proceedFromCheckout(db, {
        paymentId: late.paymentId,
        token: tokenOf((late as unknown as { checkoutUrl: string }).checkoutUrl),
        code: "WALLET_V2",
        locale: "en",
      }),
    ).toEqual({
      outcome: "not_open",
    });
  });
});
