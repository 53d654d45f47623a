import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { apiClient, type ApiClient } from "../support/api";
import { createMerchant } from "../support/factories";
import { startTestGateway, type TestGateway } from "../support/gateway-server";
import { check, createIntent, payWithOtp, refund, serverHeaders } from "../support/payments";

/**
 * The rest of the suite runs on PostgreSQL; this file runs a whole payment over HTTP on the
 * embedded database that `npm start` uses when DATABASE_URL is unset, so both drivers are
 * proven on the same migrations and transactions.
 */
const saved = { databaseUrl: process.env.DATABASE_URL, pgliteDir: process.env.PGLITE_DIR };
const globalConfig = globalThis as unknown as { gatewayConfig?: unknown };

let gateway: TestGateway;
let api: ApiClient;

beforeAll(async () => {
  await closeDatabase();
  process.env.DATABASE_URL = "";
  process.env.PGLITE_DIR = "memory://";
  globalConfig.gatewayConfig = undefined;
  gateway = await startTestGateway();
  api = apiClient(gateway.baseUrl);
});

afterAll(async () => {
  await gateway.close();
  await closeDatabase();
  process.env.DATABASE_URL = saved.databaseUrl;
  process.env.PGLITE_DIR = saved.pgliteDir;
  globalConfig.gatewayConfig = undefined;
});

describe("the embedded PGlite database", () => {
  it("is the driver chosen when DATABASE_URL is unset", async () => {
    expect((await getDatabase()).driver).toBe("pglite");
  });

  it("carries a wallet payment from create through OTP to a partial refund", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, {
      amount: 0.3,
      actionCurrencyCode: "TND",
      actionCountryCode: "TUN",
    });
    const verified = await payWithOtp(api, merchant, intent.paymentId);
    expect(verified.statusCode).toBe(2);
    const paid = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(paid.body.data).toMatchObject({ statusCode: 2, amount: 0.3, currencyCode: "TND" });

    const refunded = await refund(api, merchant, intent.paymentId, { description: "one item back", amount: 0.1 });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({
      refundedAmount: 0.1,
      totalRefundedAmount: 0.1,
      remainingRefundableAmount: 0.2,
    });
    const after = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(after.body.data.statusCode).toBe(16);
  });
});
