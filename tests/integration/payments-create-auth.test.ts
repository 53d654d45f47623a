import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { customers, payments, rateLimits } from "@/lib/db/schema";
import { basicBearer } from "@/lib/auth/detect-credential";
import { rateLimitKeys, rateLimitPolicies } from "@/lib/rate-limit/policies";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { advanceClock, intentBody, paymentRow, serviceIdOf } from "../support/payments";

// Create looks the client credential up and charges its limit in the statement that writes
// the customer and the intent (one round trip). These hold it to what a separate auth gave:
// a refused request writes nothing, and the answers keep their order.
const { api } = useTestGateway();
const create = (headers: Record<string, string>, body: object, countryCode = "DZA") =>
  api.post(`/api/v1/payments/intents?countryCode=${countryCode}`, body, headers);

async function writtenFor(serviceId: string, body: { userId: string; actionId: string }) {
  const db = await getDb();
  const customerRows = await db
    .select()
    .from(customers)
    .where(and(eq(customers.serviceId, serviceId), eq(customers.phone, body.userId)));
  const paymentRows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.serviceId, serviceId), eq(payments.actionId, body.actionId)));
  return { customers: customerRows.length, payments: paymentRows.length };
}

describe("create with client_auth in its statement", () => {
  it("writes nothing for a wrong client secret, and answers 401 invalid_credentials", async () => {
    const merchant = await createMerchant();
    const body = intentBody();
    const response = await create({ authorization: basicBearer(merchant.clientId, `${merchant.clientSecret}x`) }, body);
    expect(response.status).toBe(401);
    expect(response.body.error.name).toBe("invalid_credentials");
    expect(await writtenFor(await serviceIdOf(merchant), body)).toEqual({ customers: 0, payments: 0 });
  });

  it("writes nothing when x-service names another service (401), and creates when it names its own", async () => {
    const merchant = await createMerchant();
    const other = await createMerchant();
    const body = intentBody();
    const refused = await create(clientAuth(merchant, { "x-service": other.service }), body);
    expect(refused.status).toBe(401);
    expect(await writtenFor(await serviceIdOf(merchant), body)).toEqual({ customers: 0, payments: 0 });
    const created = await create(clientAuth(merchant, { "x-service": merchant.service }), body);
    expect(created.status).toBe(201);
    expect(await writtenFor(await serviceIdOf(merchant), body)).toEqual({ customers: 1, payments: 1 });
  });

  it("writes nothing past the client's limit: 429 rate_limited with Retry-After", async () => {
    const merchant = await createMerchant();
    const db = await getDb();
    // The client's whole window spent: the next request is over the limit.
    const { windowMs, intervalMs } = rateLimitPolicies.client;
    await db.insert(rateLimits).values({
      key: rateLimitKeys.client(merchant.clientId),
      tatMs: Date.now() + windowMs + intervalMs * 10,
      allowed: true,
    });
    const body = intentBody();
    const response = await create(clientAuth(merchant), body);
    expect(response.status).toBe(429);
    expect(response.body.error.name).toBe("rate_limited");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await writtenFor(await serviceIdOf(merchant), body)).toEqual({ customers: 0, payments: 0 });
  });

  it("writes no customer for a country the service has not enabled (400)", async () => {
    const merchant = await createMerchant({ countries: ["DZA"] });
    const body = intentBody({ actionCountryCode: "MAR", actionCurrencyCode: "MAD" });
    const response = await create(clientAuth(merchant), body, "MAR");
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: "query.countryCode", message: expect.stringMatching(/not enabled/) },
    ]);
    expect(await writtenFor(await serviceIdOf(merchant), body)).toEqual({ customers: 0, payments: 0 });
  });

  it("answers 401 before the body's errors, and the body's errors to a good credential", async () => {
    const merchant = await createMerchant();
    const wrong = { authorization: basicBearer(merchant.clientId, `${merchant.clientSecret}x`) };
    for (const body of [{ amount: "x" }, intentBody({ amount: 10.555 }), intentBody({ actionCountryCode: "TUN" })]) {
      const refused = await create(wrong, body);
      expect(refused.status).toBe(401);
      const invalid = await create(clientAuth(merchant), body);
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.name).toBe("validation_error");
    }
  });

  it("dates the intent on the service's sandbox clock: expiry 30 minutes after the service's now", async () => {
    const merchant = await createMerchant();
    expect((await advanceClock(api, merchant, 86_400)).status).toBe(200);
    const before = Date.now() + 86_400_000;
    const response = await create(clientAuth(merchant), intentBody());
    expect(response.status).toBe(201);
    const after = Date.now() + 86_400_000;
    const row = await paymentRow(response.body.data.paymentId);
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row.updatedAt.getTime()).toBeLessThanOrEqual(after + 1);
    expect(row.expiresAt.getTime() - row.updatedAt.getTime()).toBe(30 * 60 * 1000);
  });
});
