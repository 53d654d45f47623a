import { describe, expect, it } from "vitest";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { browserHeaders, check, createIntent, paidIntent, proceed, serverHeaders } from "../support/payments";

const { api } = useTestGateway();

describe("GET /payments/intents/:id/check", () => {
  it("reports a CREATED intent as proceeding (1) with every required field", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { amount: 42.5 });
    const before = Date.now();
    const response = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success", message: expect.any(String) });
    expect(response.body.data).toEqual({
      statusCode: 1,
      paymentMethodName: "",
      amount: 42.5,
      currencyCode: "DZD",
      endUserMessage: "Your payment is being processed.",
      lastUpdate: expect.any(String),
    });
    expect(Math.abs(new Date(response.body.data.lastUpdate).getTime() - before)).toBeLessThan(10_000);
  });

  it("reports REQUIRES_ACTION as 12 and names the payment method", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await proceed(api, intent.paymentId, serverHeaders(merchant));
    const response = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(response.body.data).toMatchObject({ statusCode: 12, paymentMethodName: "WALLET_V2" });
  });

  it("answers all three modes: client_auth, merchant_auth with the client secret, user_auth of the owner", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await paidIntent(api, merchant, { userId: customer.phone, captureMethod: "RESERVATION" });
    for (const headers of [
      serverHeaders(merchant),
      browserHeaders(merchant, intent.clientSecret, { origin: "https://shop.example" }),
      userAuth(merchant, accessToken, { "x-platform": "IOS" }),
    ]) {
      const response = await check(api, intent.paymentId, headers);
      expect(response.status).toBe(200);
      expect(response.body.data.statusCode).toBe(13);
    }
  });

  it("hides other customers' and other merchants' payments", async () => {
    const [owner, other] = [await createMerchant(), await createMerchant()];
    const { accessToken } = await createCustomerToken(owner);
    const intent = await createIntent(api, owner);
    const byOtherCustomer = await check(api, intent.paymentId, userAuth(owner, accessToken, { "x-platform": "WEB" }));
    expect(byOtherCustomer.status).toBe(404);
    const byOtherMerchant = await check(api, intent.paymentId, serverHeaders(other));
    expect(byOtherMerchant.status).toBe(404);
    const byOtherKey = await check(api, intent.paymentId, browserHeaders(other, intent.clientSecret));
    expect(byOtherKey.status).toBe(401);
    expect(byOtherKey.body.error.name).toBe("invalid_credentials");
    const unknown = await check(
      api,
      "00000000-0000-4000-8000-000000000000",
      browserHeaders(owner, intent.clientSecret),
    );
    expect(unknown.status).toBe(401);
    // The auth statement reads the path's payment too: an unknown id, or one that is no uuid, is no payment.
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-payment-id"]) {
      const byServer = await check(api, id, serverHeaders(owner));
      expect(byServer.status).toBe(404);
      expect(byServer.body.error.name).toBe("not_found");
      expect((await check(api, id, userAuth(owner, accessToken, { "x-platform": "WEB" }))).status).toBe(404);
    }
  });

  it("refuses merchant_auth from an Origin not on the allow-list with 403", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await check(
      api,
      intent.paymentId,
      browserHeaders(merchant, intent.clientSecret, { origin: "https://evil.example" }),
    );
    expect(response.status).toBe(403);
    expect(response.body.error.name).toBe("origin_not_allowed");
  });

  it("requires x-platform, and x-service for client_auth", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const noPlatform = await check(api, intent.paymentId, clientAuth(merchant, { "x-service": merchant.service }));
    expect(noPlatform.status).toBe(400);
    const noService = await check(api, intent.paymentId, clientAuth(merchant, { "x-platform": "API" }));
    expect(noService.status).toBe(400);
    const wrongService = await check(
      api,
      intent.paymentId,
      clientAuth(merchant, { "x-platform": "API", "x-service": "someone-else" }),
    );
    expect(wrongService.status).toBe(401);
  });
});
