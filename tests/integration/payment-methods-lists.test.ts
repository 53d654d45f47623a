import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentMethodCatalog } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth, merchantAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { payWithNewCard, storedCardData, TEST_CARDS } from "../support/cards";
import { advanceClock, createIntent, proceed, serviceIdOf } from "../support/payments";

const { api } = useTestGateway();

const available = (merchant: OnboardedMerchant, query: string, extra: Record<string, string> = {}) =>
  api.get(`/api/v1/payment-methods/available${query}`, clientAuth(merchant, extra));

describe("GET /api/v1/payment-methods/available", () => {
  it("lists WALLET_V2, CARD_PROVIDER, in Algeria SATIM, CHARGILY (contract 15), for a service's alpha-2", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const response = await available(merchant, "?countryCode=DZ");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success", message: expect.any(String) });
    const base = process.env.PUBLIC_BASE_URL;
    expect(response.body.data).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "wallet-v2",
        code: "WALLET_V2",
        displayName: "Wallet",
        image: `${base}/payment-methods/wallet.svg`,
        archetype: "REDIRECT",
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "card-provider",
        code: "CARD_PROVIDER",
        displayName: "Bank card",
        image: `${base}/payment-methods/card.svg`,
        archetype: "REDIRECT",
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "satim",
        code: "SATIM",
        displayName: "CIB / EDAHABIA",
        image: `${base}/payment-methods/cib-edahabia.svg`,
        archetype: "REDIRECT",
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "chargily",
        code: "CHARGILY",
        displayName: "Chargily Pay (CIB / EDAHABIA)",
        image: `${base}/payment-methods/chargily.svg`,
        archetype: "REDIRECT",
      },
    ]);
  });

  it("localizes displayName by x-locale", async () => {
    const merchant = await createMerchant();
    const french = await available(merchant, "?countryCode=MA", { "x-locale": "fr_FR" });
    expect(french.body.data.map((item: { displayName: string }) => item.displayName)).toEqual([
      "Portefeuille",
      "Carte bancaire",
      "CMI (carte bancaire)",
    ]);
    const arabic = await available(merchant, "?countryCode=tn", { "x-locale": "ar_DZ" });
    expect(arabic.body.data.map((item: { displayName: string }) => item.displayName)).toEqual([
      "المحفظة",
      "البطاقة البنكية",
      "كليك تو باي",
    ]);
    const other = await available(merchant, "?countryCode=DZ", { "x-locale": "de_DE" });
    expect(other.body.data[0].displayName).toBe("Wallet");
  });

  it("adds label only where the service configured one", async () => {
    const merchant = await createMerchant();
    const db = await getDb();
    await db
      .update(paymentMethodCatalog)
      .set({ label: "Pay with Edahabia" })
      .where(
        and(
          eq(paymentMethodCatalog.serviceId, await serviceIdOf(merchant)),
          eq(paymentMethodCatalog.country, "DZA"),
          eq(paymentMethodCatalog.code, "CARD_PROVIDER"),
        ),
      );
    const response = await available(merchant, "?countryCode=DZ");
    expect(response.body.data[1].label).toBe("Pay with Edahabia");
    expect(response.body.data[0]).not.toHaveProperty("label");
    const elsewhere = await available(merchant, "?countryCode=MA");
    expect(elsewhere.body.data[1]).not.toHaveProperty("label");
  });

  it("answers an empty list for a country the service does not serve", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const response = await available(merchant, "?countryCode=FR");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it("refuses a missing, alpha-3 or unassigned countryCode with validation_error", async () => {
    const merchant = await createMerchant();
    for (const query of ["", "?countryCode=DZA", "?countryCode=XX"]) {
      const response = await available(merchant, query);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "query.countryCode" }] });
    }
  });

  it("never lists another service's catalog and accepts only client_auth", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const other = await createMerchant({ countries: ["MAR"] });
    expect((await available(other, "?countryCode=DZ")).body.data).toEqual([]);
    const intent = await createIntent(api, merchant);
    const { accessToken } = await createCustomerToken(merchant);
    for (const headers of [merchantAuth(merchant, intent.clientSecret), userAuth(merchant, accessToken), {}]) {
      const response = await api.get("/api/v1/payment-methods/available?countryCode=DZ", headers);
      expect(response.status).toBe(401);
    }
  });
});

describe("GET /api/v1/payment-methods (user context)", () => {
  const userHeaders = (merchant: OnboardedMerchant, token: string, extra: Record<string, string> = {}) =>
    userAuth(merchant, token, { "x-platform": "ANDROID", "x-country-code": "DZA", ...extra });

  it("lists the wallet with its available balance, the card method, an item per saved card (user_auth)", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const { accessToken } = await createCustomerToken(merchant, { phone: paid.userId });
    const response = await api.get("/api/v1/payment-methods?amount=100", userHeaders(merchant, accessToken));
    expect(response.status).toBe(200);
    const [wallet, cardMethod, satim, chargily, savedCard, ...rest] = response.body.data;
    expect(satim).toMatchObject({
      code: "SATIM",
      paymentOptionType: "paymentMethod",
      displayName: "CIB / EDAHABIA",
      archetype: "REDIRECT",
    });
    expect(chargily).toMatchObject({ code: "CHARGILY", paymentOptionType: "paymentMethod", archetype: "REDIRECT" });
    expect(rest).toEqual([]);
    expect(wallet).toMatchObject({
      code: "WALLET_V2",
      paymentOptionType: "wallet",
      balance: 10_000,
      currency: "DZD",
      archetype: "REDIRECT",
    });
    expect(cardMethod).toMatchObject({
      code: "CARD_PROVIDER",
      paymentOptionType: "paymentMethod",
      displayName: "Bank card",
    });
    expect(cardMethod).not.toHaveProperty("balance");
    expect(savedCard).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Visa *** 4242",
      code: "CARD_PROVIDER",
      image: `${process.env.PUBLIC_BASE_URL}/payment-methods/visa.svg`,
      paymentOptionType: "card",
    });
    const cards = await api.get("/api/v1/cards", userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    expect(savedCard.id).toBe(cards.body.data[0].id);
  });

  it("shows the wallet balance after a wallet payment, in the currency asked for", async () => {
    const merchant = await createMerchant();
    const { customer, accessToken } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, amount: 250.5 });
    await proceed(api, intent.paymentId, {
      "x-client-token": accessToken,
      "x-service": merchant.service,
      "x-platform": "WEB",
    });
    const dinars = await api.get("/api/v1/payment-methods?amount=1", userHeaders(merchant, accessToken));
    expect(dinars.body.data[0]).toMatchObject({ balance: 9749.5, currency: "DZD" });
    const euros = await api.get(
      "/api/v1/payment-methods?amount=1&actionCurrencyCode=EUR",
      userHeaders(merchant, accessToken),
    );
    expect(euros.body.data[0]).toMatchObject({ balance: 10_000, currency: "EUR" });
  });

  it("answers 400 without an amount above zero, x-country-code, x-service or x-platform (user_auth)", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const cases: [string, Record<string, string>, string][] = [
      ["", userHeaders(merchant, accessToken), "query.amount"],
      ["?amount=0", userHeaders(merchant, accessToken), "query.amount"],
      ["?amount=-5", userHeaders(merchant, accessToken), "query.amount"],
      ["?amount=abc", userHeaders(merchant, accessToken), "query.amount"],
      ["?amount=10", userAuth(merchant, accessToken, { "x-platform": "WEB" }), "headers.x-country-code"],
      ["?amount=10", { "x-client-token": accessToken, "x-platform": "WEB", "x-country-code": "DZA" }, "x-service"],
      ["?amount=10", userAuth(merchant, accessToken, { "x-country-code": "DZA" }), "headers.x-platform"],
    ];
    for (const [query, headers, path] of cases) {
      const response = await api.get(`/api/v1/payment-methods${query}`, headers);
      expect(response.status, `${query} ${path}`).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it("takes customer, country, currency and amount from the intent under merchant_auth", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.mastercard, save: true });
    const intent = await createIntent(api, merchant, {
      userId: paid.userId,
      actionCountryCode: "TUN",
      actionCurrencyCode: "TND",
      amount: 12.345,
    });
    // No amount, a disagreeing one, a bogus x-service and x-country-code: all ignored.
    for (const query of ["", "?amount=999", "?amount=abc"]) {
      const response = await api.get(
        `/api/v1/payment-methods${query}`,
        merchantAuth(merchant, intent.clientSecret, {
          "x-platform": "WEB",
          "x-service": "someone-else",
          "x-country-code": "MAR",
        }),
      );
      expect(response.status).toBe(200);
      expect(response.body.data[0]).toMatchObject({ code: "WALLET_V2", balance: 10_000, currency: "TND" });
      expect(response.body.data.map((item: { name: string }) => item.name)).toEqual([
        "wallet-v2",
        "card-provider",
        "clictopay",
        "Mastercard *** 4444",
      ]);
    }
  });

  it("refuses an Origin off the allow-list (403) and an expired intent (410) under merchant_auth", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const headers = merchantAuth(merchant, intent.clientSecret, { "x-platform": "WEB" });
    const foreign = await api.get("/api/v1/payment-methods", { ...headers, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.name).toBe("origin_not_allowed");
    expect((await api.get("/api/v1/payment-methods", { ...headers, origin: "https://shop.example" })).status).toBe(200);
    await advanceClock(api, merchant, 31 * 60);
    const expired = await api.get("/api/v1/payment-methods", headers);
    expect(expired.status).toBe(410);
    expect(expired.body.error.name).toBe("intent_expired");
  });

  it("accepts only merchant_auth and user_auth", async () => {
    const merchant = await createMerchant();
    const response = await api.get(
      "/api/v1/payment-methods?amount=10",
      clientAuth(merchant, { "x-platform": "API", "x-service": merchant.service }),
    );
    expect(response.status).toBe(401);
  });
});

describe("GET /api/v1/payment-methods/card-provider/pk", () => {
  const path = "/api/v1/payment-methods/card-provider/pk";

  it("answers the service's publishable key under client_auth, user_auth and merchant_auth", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant);
    const responses = await Promise.all([
      api.get(path, clientAuth(merchant, { "x-service": merchant.service, "x-country-code": "DZA" })),
      api.get(path, userAuth(merchant, accessToken, { "x-country-code": "MAR" })),
      api.get(path, merchantAuth(merchant, intent.clientSecret)),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        status: "success",
        data: { publicKey: merchant.cardProviderPublishableKey },
      });
    }
  });

  it("requires x-service and an alpha-3 x-country-code for client_auth and user_auth", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const cases = [
      clientAuth(merchant, { "x-country-code": "DZA" }),
      clientAuth(merchant, { "x-service": merchant.service }),
      clientAuth(merchant, { "x-service": merchant.service, "x-country-code": "DZ" }),
      { "x-client-token": accessToken, "x-country-code": "DZA" },
    ];
    for (const headers of cases) {
      const response = await api.get(path, headers);
      expect(response.status).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
    }
  });

  it("answers 404 where the service offers no cards", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const response = await api.get(
      path,
      clientAuth(merchant, { "x-service": merchant.service, "x-country-code": "FRA" }),
    );
    expect(response.status).toBe(404);
    expect(response.body.error.name).toBe("not_found");
  });
});

describe("card data", () => {
  it("stores no full card number or CVC in any table after the suite", async () => {
    expect(await storedCardData()).toEqual([]);
  });
});
