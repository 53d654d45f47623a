import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentMethodCatalog } from "@/lib/db/schema";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  capture,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  payWithOtp,
  paymentRow,
  proceed,
  serverHeaders,
  serviceIdOf,
  walletLedger,
} from "../support/payments";

const { api } = useTestGateway();

const SEVEN_DAYS = 7 * 24 * 60 * 60;

describe("payment methods a country does not offer", () => {
  it("refuses WALLET_V2 (409 invalid_state) where the catalog disables it for the intent's country", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    await (
      await getDb()
    )
      .update(paymentMethodCatalog)
      .set({ enabled: false })
      .where(
        and(
          eq(paymentMethodCatalog.serviceId, await serviceIdOf(merchant)),
          eq(paymentMethodCatalog.country, "DZA"),
          eq(paymentMethodCatalog.code, "WALLET_V2"),
        ),
      );
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.status).toBe(409);
    expect(response.body.error.name).toBe("invalid_state");
    expect((await paymentRow(intent.paymentId)).state).toBe("CREATED");
  });
});

describe("the 7-day reservation release, before the sweep has run", () => {
  it("refuses capturing a 7-day reservation: invalid_state, funds back, reported, notified released (10)", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION", amount: 2500 });
    await payWithOtp(api, merchant, intent.paymentId);
    await advanceClock(api, merchant, SEVEN_DAYS + 60);

    const captured = await capture(api, merchant, intent.paymentId);
    expect(captured.status).toBe(409);
    expect(captured.body.error.name).toBe("invalid_state");
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
  });

  it("reports a reservation left alone 7 days as released (10) to check, and releases it once", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION", amount: 1200 });
    await payWithOtp(api, merchant, intent.paymentId);
    await advanceClock(api, merchant, SEVEN_DAYS + 60);

    const checked = await check(api, intent.paymentId, serverHeaders(merchant));
    expect(checked.status).toBe(200);
    expect(checked.body.data.statusCode).toBe(10);
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(10);
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.heldMinor).toBe(0);
    expect((await notificationsOf(intent.paymentId)).filter((n) => n.type === "payment.released")).toHaveLength(1);
  });

  it("still captures a reservation just short of 7 days", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION", amount: 1000 });
    await payWithOtp(api, merchant, intent.paymentId);
    await advanceClock(api, merchant, SEVEN_DAYS - 60);
    const captured = await capture(api, merchant, intent.paymentId, { amount: 400 });
    expect(captured.status).toBe(200);
    expect(captured.body.data.statusCode).toBe(2);
  });
});
