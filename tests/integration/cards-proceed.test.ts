import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { getCardPage } from "@/lib/hosted/views/card-page-view";

import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { payWithNewCard, proceedWithCard, savedCardsOf, storedCardData, TEST_CARDS } from "../support/cards";
import { browserHeaders, check, createIntent, paymentRow, proceed, serverHeaders, tokenOf } from "../support/payments";

const { api } = useTestGateway();

const card = (extra: Record<string, unknown> = {}) => ({ paymentMethodCode: "CARD_PROVIDER", ...extra });

describe("proceed with CARD_PROVIDER", () => {
  it("always answers 12 with require3DS and the hosted card page as payUrl", async () => {
    const merchant = await createMerchant();
    for (const captureMethod of ["DIRECT", "RESERVATION"] as const) {
      const intent = await createIntent(api, merchant, { captureMethod });
      const response = await proceed(api, intent.paymentId, serverHeaders(merchant), card());
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ require3DS: true, statusCode: 12 });
      const payUrl = new URL(response.body.data.metadata.payUrl);
      expect(`${payUrl.origin}${payUrl.pathname}`).toBe(`${process.env.PUBLIC_BASE_URL}/pay/card/${intent.paymentId}`);
      expect(payUrl.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
      expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data).toMatchObject({
        statusCode: 12,
        paymentMethodName: "CARD_PROVIDER",
        endUserMessage: "Please enter your card details on the payment page.",
      });
    }
  });

  it("puts the x-locale language in the card page URL", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant, { "x-locale": "ar_DZ" }), card());
    expect(new URL(response.body.data.metadata.payUrl).pathname).toBe(`/ar/pay/card/${intent.paymentId}`);
  });

  it("answers 12 under merchant_auth and under user_auth too (the card is always entered on the page)", async () => {
    const merchant = await createMerchant();
    const browserIntent = await createIntent(api, merchant);
    const fromBrowser = await proceed(
      api,
      browserIntent.paymentId,
      browserHeaders(merchant, browserIntent.clientSecret),
      card(),
    );
    expect(fromBrowser.body.data.statusCode).toBe(12);

    const { customer, accessToken } = await createCustomerToken(merchant);
    const ownIntent = await createIntent(api, merchant, { userId: customer.phone });
    const fromUser = await proceed(
      api,
      ownIntent.paymentId,
      { "x-client-token": accessToken, "x-service": merchant.service, "x-platform": "IOS" },
      card(),
    );
    expect(fromUser.body.data).toMatchObject({ statusCode: 12, require3DS: true });
  });

  it("opens the card page only with the payUrl's token", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const db = await getDb();
    const page = await getCardPage(db, { paymentId: proceeded.paymentId, token: proceeded.token });
    expect(page).toMatchObject({
      payment: { paymentId: proceeded.paymentId, statusCode: 12, amount: 1500, currency: "DZD" },
    });
    expect(page!.confirmation).toMatchObject({ publishableKey: merchant.cardProviderPublishableKey });
    expect(await getCardPage(db, { paymentId: proceeded.paymentId, token: "0".repeat(64) })).toBeNull();
  });

  it("preselects the customer's saved card given as cardId", async () => {
    const merchant = await createMerchant();
    const first = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const second = await payWithNewCard(api, merchant, {
      card: TEST_CARDS.mastercard,
      save: true,
      intent: { userId: first.userId },
    });
    const cards = await savedCardsOf((await paymentRow(second.paymentId)).customerId);
    const visa = cards.find((saved) => saved.last4 === "4242")!;
    const proceeded = await proceedWithCard(api, merchant, {
      intent: { userId: first.userId },
      body: { cardId: visa.id },
    });
    const page = await getCardPage(await getDb(), { paymentId: proceeded.paymentId, token: proceeded.token });
    expect(page!.savedCards.map((saved) => saved.last4)).toEqual(["4444", "4242"]);
    expect(page!.checkedCardId).toBe(visa.id);

    const withoutChoice = await proceedWithCard(api, merchant, { intent: { userId: first.userId } });
    const defaultPage = await getCardPage(await getDb(), {
      paymentId: withoutChoice.paymentId,
      token: withoutChoice.token,
    });
    expect(defaultPage!.checkedCardId).toBe(cards.find((saved) => saved.last4 === "4444")!.id);
  });

  it("answers 404 to another's card, an unknown card or a malformed id; the intent can still proceed", async () => {
    const merchant = await createMerchant();
    const owner = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const [foreignCard] = await savedCardsOf((await paymentRow(owner.paymentId)).customerId);
    const intent = await createIntent(api, merchant);
    for (const cardId of [foreignCard!.id, "0b8a3a4e-1c1f-4b6e-9a55-1e0c4b4c2d11", "not-a-card"]) {
      const response = await proceed(api, intent.paymentId, serverHeaders(merchant), card({ cardId }));
      expect(response.status).toBe(404);
      expect(response.body.error.name).toBe("not_found");
    }
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
    expect((await proceed(api, intent.paymentId, serverHeaders(merchant), card())).status).toBe(200);
  });

  it("answers 404 for a card of the same customer phone at another merchant", async () => {
    const merchant = await createMerchant();
    const other = await createMerchant();
    const paid = await payWithNewCard(api, other, { card: TEST_CARDS.visa, save: true });
    const [otherCard] = await savedCardsOf((await paymentRow(paid.paymentId)).customerId);
    const intent = await createIntent(api, merchant, { userId: paid.userId });
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant), card({ cardId: otherCard!.id }));
    expect(response.status).toBe(404);
  });

  it("keeps an allow-listed redirectUrl, ignores another origin's, refuses one that is not http(s)", async () => {
    const merchant = await createMerchant();
    const allowed = await createIntent(api, merchant);
    await proceed(
      api,
      allowed.paymentId,
      serverHeaders(merchant),
      card({ redirectUrl: "https://shop.example/after-card?order=7" }),
    );
    expect((await paymentRow(allowed.paymentId)).redirectUrl).toBe("https://shop.example/after-card?order=7");

    const foreign = await createIntent(api, merchant);
    const ignored = await proceed(
      api,
      foreign.paymentId,
      serverHeaders(merchant),
      card({ redirectUrl: "https://evil.example/steal" }),
    );
    expect(ignored.status).toBe(200);
    expect((await paymentRow(foreign.paymentId)).redirectUrl).toBeNull();

    const scripted = await createIntent(api, merchant);
    for (const redirectUrl of ["javascript:alert(1)", "ftp://shop.example/x", "not a url"]) {
      const refused = await proceed(api, scripted.paymentId, serverHeaders(merchant), card({ redirectUrl }));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ name: "validation_error", details: [{ path: "redirectUrl" }] });
    }
  });

  it("refuses a second proceed of the same intent with invalid_state", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const again = await proceed(api, proceeded.paymentId, serverHeaders(merchant), card());
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");
    const wallet = await proceed(api, proceeded.paymentId, serverHeaders(merchant), { paymentMethodCode: "WALLET_V2" });
    expect(wallet.status).toBe(409);
  });

  it("refuses a card for a QR intent", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant), card());
    expect(response.status).toBe(409);
    expect(response.body.error.name).toBe("invalid_state");
  });

  it("gives the page token in the payUrl that the hosted pages accept", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    expect(tokenOf(proceeded.payUrl)).toBe(proceeded.token);
  });
});

describe("card data", () => {
  it("stores no full card number or CVC in any table after the suite", async () => {
    expect(await storedCardData()).toEqual([]);
  });
});
