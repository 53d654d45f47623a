import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { customers, payments } from "@/lib/db/schema";
import { clientAuth, merchantAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { createIntent, intentBody, paymentRow, postIntent, serviceIdOf } from "../support/payments";

const { api } = useTestGateway();

describe("POST /api/v1/payments/intents", () => {
  it("creates a CREATED intent with its client secret and a 30-minute expiry (201)", async () => {
    const merchant = await createMerchant();
    const body = intentBody({ amount: 1500.5, metaData: { paymentCheckoutId: "chk_1" } });
    const before = Date.now();
    const response = await postIntent(api, merchant, body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      code: 201,
      status: "success",
      data: { status: "CREATED", amount: 1500.5, currency: "DZD" },
    });
    const { paymentId, clientSecret, expiresAt } = response.body.data;
    expect(paymentId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(clientSecret).toMatch(new RegExp(`^pa_${paymentId}_secret_[0-9a-f]{32,}$`));
    const lifetime = new Date(expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(30 * 60 * 1000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60 * 1000 + 5000);
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ amountMinor: 150050, currency: "DZD", country: "DZA", captureMethod: "DIRECT" });
    expect(row.metaData).toEqual({ paymentCheckoutId: "chk_1" });
  });

  it("creates the customer of an unknown userId, and reuses a known one", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    await createIntent(api, merchant, { userId: phone });
    await createIntent(api, merchant, { userId: phone });
    const db = await getDb();
    const serviceId = await serviceIdOf(merchant);
    const found = await db
      .select()
      .from(customers)
      .where(and(eq(customers.serviceId, serviceId), eq(customers.phone, phone)));
    expect(found).toHaveLength(1);
    const intents = await db.select().from(payments).where(eq(payments.customerId, found[0]!.id));
    expect(intents).toHaveLength(2);
  });

  it("answers the same intent for the same actionId and body (idempotent create)", async () => {
    const merchant = await createMerchant();
    const body = intentBody();
    const first = await postIntent(api, merchant, body);
    const again = await postIntent(api, merchant, { ...body });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
  });

  it("refuses an actionId reused with different parameters with 422 idempotency_conflict", async () => {
    const merchant = await createMerchant();
    const body = intentBody();
    await postIntent(api, merchant, body);
    for (const changed of [{ amount: body.amount + 1 }, { userId: randomPhone() }, { captureMethod: "RESERVATION" }]) {
      const response = await postIntent(api, merchant, { ...body, ...changed });
      expect(response.status).toBe(422);
      expect(response.body.error.name).toBe("idempotency_conflict");
    }
  });

  it("scopes actionId to the service: another merchant may use the same one", async () => {
    const [first, second] = [await createMerchant(), await createMerchant()];
    const body = intentBody();
    const a = await postIntent(api, first, body);
    const b = await postIntent(api, second, body);
    expect(b.status).toBe(201);
    expect(b.body.data.paymentId).not.toBe(a.body.data.paymentId);
  });

  it("takes TND amounts with 3 decimals and answers them exactly", async () => {
    const merchant = await createMerchant();
    const response = await postIntent(
      api,
      merchant,
      intentBody({ amount: 12.345, actionCurrencyCode: "TND", actionCountryCode: "TUN" }),
      "TUN",
    );
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ amount: 12.345, currency: "TND" });
    expect((await paymentRow(response.body.data.paymentId)).amountMinor).toBe(12345);
  });

  it.each([
    [{ amount: 10.001 }, "amount", /2 decimal places for DZD/],
    [{ amount: 0 }, "amount", /greater than zero/],
    [{ amount: -3 }, "amount", /greater than zero/],
    [{ amount: 1_000_000_000.5 }, "amount", /at most/],
    [{ amount: "12" }, "amount", /number/],
    [{ actionCurrencyCode: "XXX" }, "actionCurrencyCode", /not a supported currency/],
    [{ actionCurrencyCode: "dzd" }, "actionCurrencyCode", /ISO 4217/],
    [{ userId: "0555123456" }, "userId", /E\.164/],
    [{ captureMethod: "LATER" }, "captureMethod", /./],
    [{ transactionType: "NFC" }, "transactionType", /./],
    [{ actionId: "" }, "actionId", /./],
  ])("refuses %o as a validation_error on %s", async (change, path, message) => {
    const merchant = await createMerchant();
    const response = await postIntent(api, merchant, { ...intentBody(), ...change });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("validation_error");
    const detail = response.body.error.details.find((d: { path: string }) => d.path === path);
    expect(detail?.message).toMatch(message);
  });

  it("refuses 3 decimals for a 2-decimal currency but takes them for TND", async () => {
    const merchant = await createMerchant();
    const eur = await postIntent(api, merchant, intentBody({ amount: 1.005, actionCurrencyCode: "EUR" }));
    expect(eur.status).toBe(400);
    const tnd = await postIntent(
      api,
      merchant,
      intentBody({ amount: 1.005, actionCurrencyCode: "TND", actionCountryCode: "TUN" }),
      "TUN",
    );
    expect(tnd.status).toBe(201);
  });

  it("lists every failing field at once", async () => {
    const merchant = await createMerchant();
    const response = await api.post("/api/v1/payments/intents", { amount: "x" }, clientAuth(merchant));
    expect(response.status).toBe(400);
    const paths = response.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual([
      "actionCountryCode",
      "actionCurrencyCode",
      "actionId",
      "amount",
      "query.countryCode",
      "userId",
    ]);
  });

  it("refuses a country the service has not enabled, or a body country differing from the query", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const notEnabled = await postIntent(
      api,
      merchant,
      intentBody({ actionCountryCode: "MAR", actionCurrencyCode: "MAD" }),
      "MAR",
    );
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.body.error.details).toEqual([
      { path: "query.countryCode", message: expect.stringMatching(/not enabled/) },
    ]);
    const mismatch = await postIntent(api, merchant, intentBody({ actionCountryCode: "TUN" }), "DZA");
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details[0].path).toBe("actionCountryCode");
    const lowerCase = await postIntent(api, merchant, intentBody({ actionCountryCode: "dza" }), "dza");
    expect(lowerCase.status).toBe(400);
  });

  it("refuses merchant_auth, user_auth and no credential with 401 invalid_credentials", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const { accessToken } = await createCustomerToken(merchant);
    for (const headers of [merchantAuth(merchant, intent.clientSecret), userAuth(merchant, accessToken), {}]) {
      const response = await api.post("/api/v1/payments/intents?countryCode=DZA", intentBody(), headers);
      expect(response.status).toBe(401);
      expect(response.body.error.name).toBe("invalid_credentials");
    }
  });

  it("refuses a payment for a deactivated customer", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    await createIntent(api, merchant, { userId: phone });
    const db = await getDb();
    await db.update(customers).set({ isActive: false }).where(eq(customers.phone, phone));
    const response = await postIntent(api, merchant, intentBody({ userId: phone }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: "userId", message: "this customer is deactivated" }]);
  });
});
