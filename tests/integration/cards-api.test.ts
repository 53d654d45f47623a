import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { getCardPage } from "@/lib/hosted/views/card-page-view";
import { clientAuth, merchantAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  completeOnPage,
  confirmAtProvider,
  payWithNewCard,
  proceedWithCard,
  storedCardData,
  TEST_CARDS,
} from "../support/cards";
import { createIntent, proceed, serverHeaders } from "../support/payments";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";

const { api } = useTestGateway();

/** A customer with a Visa saved first and a Mastercard saved second, and a token to act as them. */
async function customerWithTwoCards(merchant: OnboardedMerchant) {
  const visa = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
  const mastercard = await payWithNewCard(api, merchant, {
    card: TEST_CARDS.mastercard,
    save: true,
    intent: { userId: visa.userId },
  });
  const { accessToken } = await createCustomerToken(merchant, { phone: visa.userId });
  return { phone: visa.userId, accessToken, visa, mastercard };
}

const listHeaders = (merchant: OnboardedMerchant, accessToken: string) =>
  userAuth(merchant, accessToken, { "x-platform": "WEB" });

describe("GET /api/v1/cards", () => {
  it("lists the customer's saved cards, last used first, with last4 and its deprecated alias number", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await customerWithTwoCards(merchant);
    const response = await api.get("/api/v1/cards", listHeaders(merchant, accessToken));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success" });
    const cards = response.body.data;
    expect(cards.map((c: { last4: string }) => c.last4)).toEqual(["4444", "4242"]);
    expect(cards.map((c: { isMostRecentlyUsed: boolean }) => c.isMostRecentlyUsed)).toEqual([true, false]);
    const year = new Date().getUTCFullYear() + 3;
    expect(cards[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      brand: "mastercard",
      last4: "4444",
      number: "4444",
      expMonth: 12,
      expYear: year,
      paymentMethodId: expect.stringMatching(/^pm_/),
      paymentMethodCode: "CARD_PROVIDER",
      isMostRecentlyUsed: true,
      createdAt: expect.any(String),
    });
  });

  it("moves a card to the top once it is used again", async () => {
    const merchant = await createMerchant();
    const { phone, accessToken } = await customerWithTwoCards(merchant);
    const before = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    const visa = before.find((c: { last4: string }) => c.last4 === "4242");
    const proceeded = await proceedWithCard(api, merchant, { intent: { userId: phone }, body: { cardId: visa.id } });
    const confirmed = await confirmAtProvider(api, proceeded, { savedPaymentMethodId: visa.paymentMethodId });
    await completeOnPage(proceeded, confirmed.paymentIntentId);
    const after = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    expect(after.map((c: { last4: string }) => c.last4)).toEqual(["4242", "4444"]);
    expect(after[0].isMostRecentlyUsed).toBe(true);
    expect(after[1].isMostRecentlyUsed).toBe(false);
  });

  it("filters by pmCode", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await customerWithTwoCards(merchant);
    const cards = await api.get("/api/v1/cards?pmCode=CARD_PROVIDER", listHeaders(merchant, accessToken));
    expect(cards.body.data).toHaveLength(2);
    const none = await api.get("/api/v1/cards?pmCode=WALLET_V2", listHeaders(merchant, accessToken));
    expect(none.body.data).toEqual([]);
  });

  it("answers an empty list for a customer without saved cards, and never another customer's cards", async () => {
    const merchant = await createMerchant();
    await customerWithTwoCards(merchant);
    const { accessToken } = await createCustomerToken(merchant);
    const response = await api.get("/api/v1/cards", listHeaders(merchant, accessToken));
    expect(response.body.data).toEqual([]);
  });

  it("requires x-service and x-platform", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const noService = await api.get("/api/v1/cards", { "x-client-token": accessToken, "x-platform": "WEB" });
    expect(noService.status).toBe(400);
    const noPlatform = await api.get("/api/v1/cards", userAuth(merchant, accessToken));
    expect(noPlatform.status).toBe(400);
    expect(noPlatform.body.error.details).toEqual([{ path: "headers.x-platform", message: expect.any(String) }]);
  });

  it("accepts only user_auth", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const attempts: Record<string, string>[] = [
      clientAuth(merchant, { "x-service": merchant.service, "x-platform": "API" }),
      merchantAuth(merchant, intent.clientSecret, { "x-platform": "WEB" }),
      { "x-client-token": "cat_forged", "x-service": merchant.service, "x-platform": "WEB" },
      {},
    ];
    for (const headers of attempts) {
      const response = await api.get("/api/v1/cards", headers);
      expect(response.status).toBe(401);
      expect(response.body.error.name).toBe("invalid_credentials");
    }
  });
});

describe("DELETE /api/v1/cards/:id", () => {
  it("deletes the card: 200 with data null, and it leaves the list, the card page and proceed", async () => {
    const merchant = await createMerchant();
    const { phone, accessToken } = await customerWithTwoCards(merchant);
    const [latest] = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    const response = await api.delete(`/api/v1/cards/${latest.id}`, undefined, {
      "x-client-token": accessToken,
      "x-country-code": "DZA",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success", data: null });

    const remaining = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    expect(remaining.map((c: { last4: string }) => c.last4)).toEqual(["4242"]);
    expect(remaining[0].isMostRecentlyUsed).toBe(true);

    const proceeded = await proceedWithCard(api, merchant, { intent: { userId: phone } });
    const page = await getCardPage(await getDb(), { paymentId: proceeded.paymentId, token: proceeded.token });
    expect(page!.savedCards.map((c) => c.last4)).toEqual(["4242"]);

    const intent = await createIntent(api, merchant, { userId: phone });
    const withDeleted = await proceed(api, intent.paymentId, serverHeaders(merchant), {
      paymentMethodCode: "CARD_PROVIDER",
      cardId: latest.id,
    });
    expect(withDeleted.status).toBe(404);

    // The provider forgot the token: it cannot be charged again.
    const refused = await confirmAtProvider(api, proceeded, { savedPaymentMethodId: latest.paymentMethodId });
    expect(refused.status).toBe(400);
  });

  it("answers 404 for another customer's card, an unknown id and a card deleted before", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await customerWithTwoCards(merchant);
    const [card] = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    const stranger = await createCustomerToken(merchant);
    const headers = (token: string) => ({ "x-client-token": token, "x-country-code": "DZA" });

    const foreign = await api.delete(`/api/v1/cards/${card.id}`, undefined, headers(stranger.accessToken));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.name).toBe("not_found");
    expect((await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data).toHaveLength(2);

    for (const id of ["0b8a3a4e-1c1f-4b6e-9a55-1e0c4b4c2d11", "nope"]) {
      expect((await api.delete(`/api/v1/cards/${id}`, undefined, headers(accessToken))).status).toBe(404);
    }
    expect((await api.delete(`/api/v1/cards/${card.id}`, undefined, headers(accessToken))).status).toBe(200);
    expect((await api.delete(`/api/v1/cards/${card.id}`, undefined, headers(accessToken))).status).toBe(404);
  });

  it("requires x-country-code (alpha-3) and user_auth", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await customerWithTwoCards(merchant);
    const [card] = (await api.get("/api/v1/cards", listHeaders(merchant, accessToken))).body.data;
    const missing = await api.delete(`/api/v1/cards/${card.id}`, undefined, { "x-client-token": accessToken });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe("headers.x-country-code");
    const alpha2 = await api.delete(`/api/v1/cards/${card.id}`, undefined, {
      "x-client-token": accessToken,
      "x-country-code": "DZ",
    });
    expect(alpha2.status).toBe(400);
    const asMerchant = await api.delete(
      `/api/v1/cards/${card.id}`,
      undefined,
      clientAuth(merchant, { "x-country-code": "DZA" }),
    );
    expect(asMerchant.status).toBe(401);
  });
});

describe("card data", () => {
  it("stores no full card number or CVC in any table after the suite", async () => {
    expect(await storedCardData()).toEqual([]);
  });
});
