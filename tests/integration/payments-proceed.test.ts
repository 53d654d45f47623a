import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { pageTokenFor } from "@/lib/auth/client-secret";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  browserHeaders,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paymentRow,
  proceed,
  serverHeaders,
  walletLedger,
} from "../support/payments";

const { api } = useTestGateway();

describe("POST /payments/intents/:id/proceed with WALLET_V2", () => {
  it("asks a merchant server for the OTP: 12, require3DS and the hosted OTP payUrl", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      status: "success",
      data: { require3DS: true, statusCode: 12, status: "OTP verification required" },
    });
    const token = pageTokenFor(await getGatewayKey(await getDb()), "hosted", intent.paymentId);
    expect(response.body.data.metadata.payUrl).toBe(
      `${process.env.PUBLIC_BASE_URL}/pay/otp/${intent.paymentId}?token=${token}`,
    );
    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "REQUIRES_ACTION",
      paymentMethodCode: "WALLET_V2",
      platform: "API",
    });
    // Nothing is taken before the buyer confirms; the merchant is told nothing yet.
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
    expect(await notificationsOf(intent.paymentId)).toEqual([]);
  });

  it.each([
    ["fr_FR", "fr"],
    ["ar_DZ", "ar"],
    ["en_US", "en"],
    ["de_DE", "en"],
  ])("puts the x-locale %s page language %s into payUrl", async (xLocale, segment) => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant, { "x-locale": xLocale }));
    expect(new URL(response.body.data.metadata.payUrl).pathname).toBe(`/${segment}/pay/otp/${intent.paymentId}`);
    expect((await paymentRow(intent.paymentId)).locale).toBe(segment);
  });

  it("asks a browser under merchant_auth for the OTP as well", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await proceed(
      api,
      intent.paymentId,
      browserHeaders(merchant, intent.clientSecret, { origin: "https://shop.example", "x-service": "ignored" }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ require3DS: true, statusCode: 12 });
  });

  it("charges the intent's own customer at once under user_auth: DIRECT succeeds (2), empty payUrl", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, amount: 250.75 });
    const response = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "IOS" }));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      require3DS: false,
      statusCode: 2,
      status: "Payment succeeded",
      metadata: { payUrl: "" },
    });
    expect(await walletLedger(merchant, customer.phone, "DZD")).toEqual({
      balanceMinor: OPENING_DZD - 25075,
      heldMinor: 0,
      availableMinor: OPENING_DZD - 25075,
      ledgerBalanceMinor: OPENING_DZD - 25075,
      ledgerHeldMinor: 0,
    });
    const sent = await notificationsOf(intent.paymentId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: "payment.succeeded",
      data: {
        paymentId: intent.paymentId,
        actionId: intent.body.actionId,
        remoteStatusCode: 2,
        statusCode: 2,
        amount: 250.75,
        currency: "DZD",
      },
    });
  });

  it("pre-authorizes a RESERVATION for its own customer under user_auth (13) and holds the funds", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, {
      userId: customer.phone,
      amount: 400,
      captureMethod: "RESERVATION",
    });
    const response = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "ANDROID" }));
    expect(response.body.data).toMatchObject({ require3DS: false, statusCode: 13, metadata: { payUrl: "" } });
    expect(await walletLedger(merchant, customer.phone, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      heldMinor: 40000,
      availableMinor: OPENING_DZD - 40000,
      ledgerHeldMinor: 40000,
    });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized"]);
  });

  it("rejects a payment above the available balance with 200 and statusCode 3", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { amount: 10_000.01 });
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      require3DS: false,
      statusCode: 3,
      status: "Insufficient wallet balance",
      metadata: { payUrl: "" },
    });
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "insufficient_funds" });
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.failed", 3],
    ]);
  });

  it("accepts exactly the whole balance", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, amount: 10_000 });
    const response = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    expect(response.body.data.statusCode).toBe(2);
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.availableMinor).toBe(0);
  });

  it("rejects under user_auth when earlier payments used the balance up", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const headers = userAuth(merchant, accessToken, { "x-platform": "WEB" });
    const first = await createIntent(api, merchant, {
      userId: customer.phone,
      amount: 6000,
      captureMethod: "RESERVATION",
    });
    expect((await proceed(api, first.paymentId, headers)).body.data.statusCode).toBe(13);
    const second = await createIntent(api, merchant, { userId: customer.phone, amount: 4000.01 });
    expect((await proceed(api, second.paymentId, headers)).body.data.statusCode).toBe(3);
  });

  it("keeps one wallet per currency", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const headers = userAuth(merchant, accessToken, { "x-platform": "WEB" });
    const dzd = await createIntent(api, merchant, { userId: customer.phone, amount: 10_000 });
    const tnd = await createIntent(api, merchant, {
      userId: customer.phone,
      amount: 9_999.999,
      actionCurrencyCode: "TND",
      actionCountryCode: "TUN",
    });
    expect((await proceed(api, dzd.paymentId, headers)).body.data.statusCode).toBe(2);
    expect((await proceed(api, tnd.paymentId, headers)).body.data.statusCode).toBe(2);
    expect((await walletLedger(merchant, customer.phone, "TND"))?.balanceMinor).toBe(1);
  });

  it("answers 404 to a user_auth customer proceeding another customer's intent", async () => {
    const merchant = await createMerchant();
    const { accessToken } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    expect(response.status).toBe(404);
    expect(response.body.error.name).toBe("not_found");
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
  });

  it("answers another merchant's intent as unknown: 404 under client_auth, 401 under merchant_auth", async () => {
    const [owner, other] = [await createMerchant(), await createMerchant()];
    const intent = await createIntent(api, owner);
    const asClient = await proceed(api, intent.paymentId, serverHeaders(other));
    expect(asClient.status).toBe(404);
    expect(asClient.body.error.name).toBe("not_found");
    const asBrowser = await proceed(api, intent.paymentId, browserHeaders(other, intent.clientSecret));
    expect(asBrowser.status).toBe(401);
    expect(asBrowser.body.error.name).toBe("invalid_credentials");
    const unknown = await proceed(api, "00000000-0000-4000-8000-000000000000", serverHeaders(owner));
    expect(unknown.status).toBe(404);
    const notAnId = await proceed(api, "not-a-payment", serverHeaders(owner));
    expect(notAnId.status).toBe(404);
  });

  it("refuses a client secret of another intent under merchant_auth with 401", async () => {
    const merchant = await createMerchant();
    const [a, b] = [await createIntent(api, merchant), await createIntent(api, merchant)];
    const response = await proceed(api, a.paymentId, browserHeaders(merchant, b.clientSecret));
    expect(response.status).toBe(401);
  });

  it("requires x-platform, and x-service for client_auth and user_auth", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const noPlatform = await proceed(api, intent.paymentId, clientAuth(merchant, { "x-service": merchant.service }));
    expect(noPlatform.status).toBe(400);
    expect(noPlatform.body.error.details).toEqual([{ path: "headers.x-platform", message: expect.any(String) }]);
    const badPlatform = await proceed(api, intent.paymentId, serverHeaders(merchant, { "x-platform": "TV" }));
    expect(badPlatform.status).toBe(400);
    const noService = await proceed(api, intent.paymentId, clientAuth(merchant, { "x-platform": "API" }));
    expect(noService.status).toBe(400);
    expect(noService.body.error.details).toEqual([{ path: "x-service", message: "Required" }]);
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
  });

  it("refuses an unknown paymentMethodCode as a validation_error", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant), { paymentMethodCode: "CASH" });
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].path).toBe("paymentMethodCode");
  });

  it("refuses to proceed a payment that was already proceeded (invalid_state)", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await proceed(api, intent.paymentId, serverHeaders(merchant));
    const again = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");
    expect(again.body.message).toMatch(/REQUIRES_ACTION/);
  });

  it("refuses to proceed a failed payment again (invalid_state)", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { amount: 20_000 });
    expect((await proceed(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(3);
    const again = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");
  });

  it("refuses the wallet in a country the service no longer enables", async () => {
    const merchant = await createMerchant({ countries: ["DZA", "MAR"] });
    const intent = await createIntent(api, merchant, { actionCountryCode: "MAR", actionCurrencyCode: "MAD" });
    await (
      await getDb()
    )
      .update(services)
      .set({ countries: ["DZA"] })
      .where(eq(services.code, merchant.service));
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(409);
    expect(response.body.message).toBe("WALLET_V2 is not enabled for MAR.");
  });
});
