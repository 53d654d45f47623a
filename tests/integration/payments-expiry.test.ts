import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { expireOpenPayments, releaseStaleReservations } from "@/lib/payments/operations/expire-payments";
import { clientAuth, merchantAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { inProduction } from "../support/production-config";
import { installWalletTransport } from "@/lib/wallet-connection/wallet-connection";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  browserHeaders,
  capture,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paidIntent,
  paymentRow,
  proceed,
  release,
  serverHeaders,
  serviceIdOf,
  walletLedger,
} from "../support/payments";

const { api } = useTestGateway();

const PAST_GRACE = 30 * 60 + 31;
async function sweep(merchant: OnboardedMerchant) {
  const db = await getDb();
  const serviceId = await serviceIdOf(merchant);
  return {
    expired: await expireOpenPayments(db, { serviceId }),
    released: await releaseStaleReservations(db, { serviceId }),
  };
}

describe("POST /api/v1/sandbox/clock", () => {
  it("moves the calling service's clock forward and says where it stands", async () => {
    const merchant = await createMerchant();
    const first = await advanceClock(api, merchant, 600);
    expect(first.status).toBe(200);
    expect(first.body.data.clockOffsetSeconds).toBe(600);
    const second = await advanceClock(api, merchant, 60);
    expect(second.body.data.clockOffsetSeconds).toBe(660);
    const skew = new Date(second.body.data.now).getTime() - Date.now();
    expect(skew).toBeGreaterThan(655_000);
    expect(skew).toBeLessThan(665_000);
    // Another service's clock does not move.
    const other = await createMerchant();
    expect((await advanceClock(api, other, 0)).body.data.clockOffsetSeconds).toBe(0);
  });

  it("takes only a non-negative whole number of seconds, under client_auth", async () => {
    const merchant = await createMerchant();
    for (const advanceSeconds of [-1, 1.5, "60"]) {
      const response = await api.post("/api/v1/sandbox/clock", { advanceSeconds }, clientAuth(merchant));
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].path).toBe("advanceSeconds");
    }
    const intent = await createIntent(api, merchant);
    const unauthenticated = await api.post(
      "/api/v1/sandbox/clock",
      { advanceSeconds: 1 },
      merchantAuth(merchant, intent.clientSecret),
    );
    expect(unauthenticated.status).toBe(401);
  });

  it("does not exist in production (404 not_found, whatever the credential)", async () => {
    const merchant = await createMerchant();
    await inProduction(async () => {
      for (const headers of [clientAuth(merchant), {}]) {
        const response = await api.post("/api/v1/sandbox/clock", { advanceSeconds: 60 }, headers);
        expect(response.status).toBe(404);
        expect(response.body.error.name).toBe("not_found");
      }
    });
    expect((await advanceClock(api, merchant, 0)).body.data.clockOffsetSeconds).toBe(0);
  });
});

describe("the 30-minute intent lifetime (contract section 4)", () => {
  it("answers merchant_auth within the grace, then 410 intent_expired and fails the intent", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const headers = browserHeaders(merchant, intent.clientSecret);
    await advanceClock(api, merchant, 30 * 60 + 25);
    expect((await check(api, intent.paymentId, headers)).status).toBe(200);
    await advanceClock(api, merchant, 6);
    const expired = await check(api, intent.paymentId, headers);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 410, status: "error", error: { name: "intent_expired" } });
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.failed", 3],
    ]);
    const proceeded = await proceed(api, intent.paymentId, headers);
    expect(proceeded.status).toBe(410);
  });

  it("fails an expired CREATED intent on proceed in any mode: 410 and FAILED (3) with one notification", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const byServer = await createIntent(api, merchant);
    const byUser = await createIntent(api, merchant, { userId: customer.phone });
    await advanceClock(api, merchant, PAST_GRACE);
    const first = await proceed(api, byServer.paymentId, serverHeaders(merchant));
    expect(first.status).toBe(410);
    expect(first.body.error.name).toBe("intent_expired");
    // The first token outlived its 15 minutes on the moved clock; a fresh one is needed.
    expect(
      (await proceed(api, byUser.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }))).status,
    ).toBe(401);
    const fresh = await api.post("/api/v1/customer-access-token", { customerId: customer.id }, clientAuth(merchant));
    const viaUser = await proceed(
      api,
      byUser.paymentId,
      userAuth(merchant, fresh.body.data.accessToken, { "x-platform": "WEB" }),
    );
    expect(viaUser.status).toBe(410);
    for (const paymentId of [byServer.paymentId, byUser.paymentId]) {
      expect(await paymentRow(paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
    }
    // Retrying keeps answering 410 and sends nothing more.
    expect((await proceed(api, byServer.paymentId, serverHeaders(merchant))).status).toBe(410);
    expect(await notificationsOf(byServer.paymentId)).toHaveLength(1);
    const checked = await check(api, byServer.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({
      statusCode: 3,
      endUserMessage: "The payment expired before it was completed.",
    });
    expect((await walletLedger(merchant, customer.phone, "DZD"))?.availableMinor ?? OPENING_DZD).toBe(OPENING_DZD);
  });

  it("asks no wallet for an expired intent: 410 while the wallet is down, and no code is sent", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await advanceClock(api, merchant, PAST_GRACE);
    let walletCalls = 0;
    installWalletTransport(async () => {
      walletCalls += 1;
      throw new TypeError("fetch failed: connect ECONNREFUSED");
    });
    try {
      const expired = await proceed(api, intent.paymentId, serverHeaders(merchant));
      expect(expired.status).toBe(410);
      expect(expired.body.error.name).toBe("intent_expired");
    } finally {
      installWalletTransport(null);
    }
    expect(walletCalls).toBe(0);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "expired" });
  });

  it("still proceeds within the grace", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await advanceClock(api, merchant, 30 * 60 + 20);
    expect((await proceed(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(12);
  });

  it("reports an open intent past its grace as failed to client_auth check, and fails it", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await proceed(api, intent.paymentId, serverHeaders(merchant));
    await advanceClock(api, merchant, PAST_GRACE);
    const response = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(200);
    expect(response.body.data.statusCode).toBe(3);
    expect((await paymentRow(intent.paymentId)).state).toBe("FAILED");
  });

  it("answers 410 to merchant_auth on a PRE_AUTHORIZED intent past grace; the server still captures it", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 100 });
    await advanceClock(api, merchant, 2 * 60 * 60);
    const browser = await check(api, intent.paymentId, browserHeaders(merchant, intent.clientSecret));
    expect(browser.status).toBe(410);
    expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");
    const server = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(server.body.data.statusCode).toBe(13);
    expect((await capture(api, merchant, intent.paymentId)).body.data.statusCode).toBe(2);
    // Terminal now: merchant_auth reads it again without 410.
    expect((await check(api, intent.paymentId, browserHeaders(merchant, intent.clientSecret))).status).toBe(200);
  });
});

describe("background sweep and the 7-day reservation release", () => {
  it("fails unattended CREATED and REQUIRES_ACTION intents past the grace, and nothing else", async () => {
    const merchant = await createMerchant();
    const created = await createIntent(api, merchant);
    const awaiting = await createIntent(api, merchant);
    await proceed(api, awaiting.paymentId, serverHeaders(merchant));
    const reserved = await paidIntent(api, merchant, { captureMethod: "RESERVATION" });
    const succeeded = await paidIntent(api, merchant);

    await advanceClock(api, merchant, 30 * 60 + 20);
    expect(await sweep(merchant)).toEqual({ expired: 0, released: 0 });
    await advanceClock(api, merchant, 11);
    expect(await sweep(merchant)).toEqual({ expired: 2, released: 0 });
    for (const intent of [created, awaiting]) {
      expect(await paymentRow(intent.paymentId)).toMatchObject({
        state: "FAILED",
        failureReason: "expired",
        status: "Payment expired before it was completed",
      });
      expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
        ["payment.failed", 3],
      ]);
    }
    expect((await paymentRow(reserved.paymentId)).state).toBe("PRE_AUTHORIZED");
    expect((await paymentRow(succeeded.paymentId)).state).toBe("SUCCEEDED");
    expect(await sweep(merchant)).toEqual({ expired: 0, released: 0 });
  });

  it("gives a reservation made after the sandbox clock moved on its full 7 days, on that clock", async () => {
    const merchant = await createMerchant();
    await advanceClock(api, merchant, 8 * 24 * 60 * 60);
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 300 });
    expect(await sweep(merchant)).toEqual({ expired: 0, released: 0 });
    expect((await capture(api, merchant, intent.paymentId, { amount: 100 })).status).toBe(200);
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");
  });

  it("releases a reservation left alone 7 days: CANCELED (10), funds back, notified", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 2500 });
    await advanceClock(api, merchant, 7 * 24 * 60 * 60 - 60);
    expect(await sweep(merchant)).toEqual({ expired: 0, released: 0 });
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.heldMinor).toBe(250000);
    await advanceClock(api, merchant, 61);
    expect(await sweep(merchant)).toEqual({ expired: 0, released: 1 });
    expect((await paymentRow(intent.paymentId)).state).toBe("CANCELED");
    expect(await walletLedger(merchant, intent.body.userId, "DZD")).toMatchObject({
      balanceMinor: OPENING_DZD,
      heldMinor: 0,
      ledgerHeldMinor: 0,
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(10);
    expect((await notificationsOf(intent.paymentId)).map((n) => [n.type, n.data.remoteStatusCode])).toEqual([
      ["payment.pre_authorized", 13],
      ["payment.released", 10],
    ]);
    expect((await release(api, merchant, intent.paymentId)).body.error.name).toBe("invalid_state");
  });
});
