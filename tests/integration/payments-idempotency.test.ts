import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { openResponse } from "@/lib/idempotency/sealed-response";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys, paymentCaptures, paymentRefunds } from "@/lib/db/schema";
import { claimIdempotencyKey } from "@/lib/idempotency/claim-idempotency-key";
import { providerUnavailable } from "@/lib/provider-operations";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  capture,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paidIntent,
  paymentRow,
  proceed,
  refund,
  release,
  serverHeaders,
  walletLedger,
} from "../support/payments";

const gateway = useTestGateway();
const { api } = gateway;

let keyCounter = 0;
const newKey = () => `key-${process.pid}-${Date.now()}-${(keyCounter += 1)}`;

const reserved = (merchant: OnboardedMerchant, amount = 500) =>
  paidIntent(api, merchant, { captureMethod: "RESERVATION", amount });
const succeeded = (merchant: OnboardedMerchant, amount = 100) => paidIntent(api, merchant, { amount });

describe("Idempotency-Key (contract section 5)", () => {
  it("replays a capture's status and body with Idempotent-Replayed: true, never capturing twice", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    const first = await capture(api, merchant, intent.paymentId, { amount: 200 }, { "idempotency-key": key });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await capture(
      api,
      merchant,
      intent.paymentId,
      { amount: 200 },
      { "idempotency-key": key, "x-request-id": "retry-1" },
    );
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).toBe("retry-1");
    expect(again.body).toEqual(first.body);
    const captures = await (
      await getDb()
    )
      .select()
      .from(paymentCaptures)
      .where(eq(paymentCaptures.paymentId, intent.paymentId));
    expect(captures).toHaveLength(1);
    expect((await walletLedger(merchant, intent.body.userId, "DZD"))?.balanceMinor).toBe(OPENING_DZD - 20000);
    expect((await notificationsOf(intent.paymentId)).filter((n) => n.type === "payment.captured")).toHaveLength(1);
  });

  it("remembers the answer in the same transaction as the capture", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    const [row] = await (await getDb()).select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row).toMatchObject({ state: "completed", responseStatus: 200, endpoint: "payments.capture" });
    expect(openResponse(await getGatewayKey(await getDb()), row!.responseBody)).toMatchObject({
      data: { statusCode: 2 },
    });
  });

  it("replays a refund: one refund row, the same refund id, the same totals", async () => {
    const merchant = await createMerchant();
    const intent = await succeeded(merchant, 90);
    const key = newKey();
    const body = { description: "retry me", amount: 30 };
    const first = await refund(api, merchant, intent.paymentId, body, { "idempotency-key": key });
    const again = await refund(api, merchant, intent.paymentId, body, { "idempotency-key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.data.totalRefundedAmount).toBe(30);
    const rows = await (
      await getDb()
    )
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, intent.paymentId));
    expect(rows).toHaveLength(1);
    // A new key is a new refund.
    const next = await refund(api, merchant, intent.paymentId, body, { "idempotency-key": newKey() });
    expect(next.body.data.totalRefundedAmount).toBe(60);
  });

  it("replays a proceed with the same payUrl instead of refusing the second call", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const headers = serverHeaders(merchant, { "idempotency-key": newKey() });
    const first = await proceed(api, intent.paymentId, headers);
    const again = await proceed(api, intent.paymentId, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    const withoutKey = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(withoutKey.body.error.name).toBe("invalid_state");
  });

  it("replays a release", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    const first = await release(api, merchant, intent.paymentId, { "idempotency-key": key });
    const again = await release(api, merchant, intent.paymentId, { "idempotency-key": key });
    expect(first.body.data.statusCode).toBe(10);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("answers 422 idempotency_conflict for the same key with another body or another payment", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const other = await reserved(merchant);
    const key = newKey();
    await capture(api, merchant, intent.paymentId, { amount: 100 }, { "idempotency-key": key });
    const otherBody = await capture(api, merchant, intent.paymentId, { amount: 101 }, { "idempotency-key": key });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error.name).toBe("idempotency_conflict");
    const otherPayment = await capture(api, merchant, other.paymentId, { amount: 100 }, { "idempotency-key": key });
    expect(otherPayment.status).toBe(422);
    expect((await paymentRow(other.paymentId)).state).toBe("PRE_AUTHORIZED");
  });

  it("treats the same JSON in another key order as the same body", async () => {
    const merchant = await createMerchant();
    const intent = await succeeded(merchant);
    const key = newKey();
    const headers = { ...clientAuth(merchant), "idempotency-key": key, "content-type": "application/json" };
    const path = `/api/v1/payments/${intent.paymentId}/refund`;
    await api.call("POST", path, { rawBody: '{"description":"d","amount":5}', headers });
    const again = await api.call("POST", path, { rawBody: '{ "amount": 5, "description": "d" }', headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("scopes keys to the endpoint and to the caller", async () => {
    const [merchant, stranger] = [await createMerchant(), await createMerchant()];
    const intent = await reserved(merchant);
    const key = newKey();
    await refund(
      api,
      stranger,
      (await succeeded(stranger)).paymentId,
      { description: "x" },
      { "idempotency-key": key },
    );
    const captured = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(captured.status).toBe(200);
    expect(captured.headers.get("idempotent-replayed")).toBeNull();
    const refunded = await refund(api, merchant, intent.paymentId, { description: "x" }, { "idempotency-key": key });
    expect(refunded.status).toBe(200);
    expect(refunded.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 409 request_in_progress while the key's first request runs, however long past its lease", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    const db = await getDb();
    const path = `${gateway.baseUrl}/api/v1/payments/intents/${intent.paymentId}/capture`;
    const running = new Request(path, { method: "POST", headers: { ...clientAuth(merchant), "idempotency-key": key } });
    const principal = await authenticate(db, running, { modes: ["client"] });
    // A one-second lease the running request renews: two seconds later it is still its claim.
    const lease = { seconds: 1, renewMs: 200 };
    const claim = await claimIdempotencyKey(db, {
      request: running,
      principal,
      endpoint: "payments.capture",
      body: {},
      defaultStatus: 200,
      lease,
    });
    expect(claim.kind).toBe("owned");
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const concurrent = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(concurrent.status).toBe(409);
    expect(concurrent.body.error.name).toBe("request_in_progress");
    expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");

    // The first request ends without an answer (its provider did not answer): the same request may take the key
    // up at once.
    if (claim.kind === "owned") await claim.endWithError(db, providerUnavailable());
    expect((await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key })).status).toBe(200);
  });

  it("lets a retry take over a claim whose request died once its lease ran out", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    const db = await getDb();
    const path = `${gateway.baseUrl}/api/v1/payments/intents/${intent.paymentId}/capture`;
    const dead = new Request(path, { method: "POST", headers: { ...clientAuth(merchant), "idempotency-key": key } });
    const principal = await authenticate(db, dead, { modes: ["client"] });
    // Its process died: nothing renews the one-second lease.
    const lease = { seconds: 1, renewMs: 3_600_000 };
    await claimIdempotencyKey(db, {
      request: dead,
      principal,
      endpoint: "payments.capture",
      body: {},
      defaultStatus: 200,
      lease,
    });
    const meanwhile = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(meanwhile.body.error.name).toBe("request_in_progress");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const retry = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(retry.status).toBe(200);
  });

  it("remembers the operation's own refusal: the retry answers that 409 with Idempotent-Replayed: true", async () => {
    const merchant = await createMerchant();
    const intent = await paidIntent(api, merchant);
    const key = newKey();
    const first = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(first.status).toBe(409);
    expect(first.body.error.name).toBe("invalid_state");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retry = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    expect(retry.status).toBe(409);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toMatchObject({
      code: 409,
      status: "error",
      message: first.body.message,
      error: { name: "invalid_state" },
    });
    expect(retry.body.error.requestId).toBe(retry.headers.get("x-request-id"));
    const other = await capture(api, merchant, intent.paymentId, { amount: 1 }, { "idempotency-key": key });
    expect(other.status).toBe(422);
    expect(other.body.error.name).toBe("idempotency_conflict");
  });

  it("does not remember a request refused by validation, auth or an amount to correct", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant, 500);
    const key = newKey();
    const invalid = await capture(api, merchant, intent.paymentId, { amount: "lots" }, { "idempotency-key": key });
    expect(invalid.status).toBe(400);
    const unauthenticated = await api.post(
      `/api/v1/payments/intents/${intent.paymentId}/capture`,
      {},
      { "idempotency-key": key },
    );
    expect(unauthenticated.status).toBe(401);
    const tooMuch = await capture(api, merchant, intent.paymentId, { amount: 900 }, { "idempotency-key": key });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.name).toBe("amount_exceeds_reserved");
    const corrected = await capture(api, merchant, intent.paymentId, { amount: 450 }, { "idempotency-key": key });
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get("idempotent-replayed")).toBeNull();
    const replay = await capture(api, merchant, intent.paymentId, { amount: 450 }, { "idempotency-key": key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("forgets a key after 24 hours on the service clock", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const key = newKey();
    await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    await advanceClock(api, merchant, 23 * 60 * 60);
    expect(
      (await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key })).headers.get(
        "idempotent-replayed",
      ),
    ).toBe("true");
    await advanceClock(api, merchant, 60 * 60 + 1);
    const later = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": key });
    // Runs again, and the state machine refuses a second capture.
    expect(later.status).toBe(409);
    expect(later.body.error.name).toBe("invalid_state");
  });

  it("refuses a key longer than 255 characters as a validation_error", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    const response = await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": "k".repeat(256) });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: "idempotency-key", message: "must be at most 255 characters" },
    ]);
    expect((await capture(api, merchant, intent.paymentId, {}, { "idempotency-key": "k".repeat(255) })).status).toBe(
      200,
    );
  });

  it("without a key, refuses the second capture instead of running it twice", async () => {
    const merchant = await createMerchant();
    const intent = await reserved(merchant);
    expect((await capture(api, merchant, intent.paymentId)).status).toBe(200);
    expect((await capture(api, merchant, intent.paymentId)).body.error.name).toBe("invalid_state");
  });
});
