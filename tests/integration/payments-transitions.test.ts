import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import type { PaymentState } from "@/lib/payments/core/payment-state";
import { userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  browserHeaders,
  capture,
  check,
  createIntent,
  payWithOtp,
  paymentRow,
  proceed,
  refund,
  release,
  serverHeaders,
  tokenOf,
} from "../support/payments";

// The interface's "States and transitions" table, each row driven over HTTP (the OTP step
// through the hosted page's domain operation), then every operation tried in every state.
const { api } = useTestGateway();
let merchant: OnboardedMerchant;

beforeAll(async () => {
  merchant = await createMerchant();
});

type Reachable = Exclude<PaymentState, "PROCESSING">;

/** A payment brought into `state` through the API only. */
async function paymentIn(state: Reachable, owner: OnboardedMerchant = merchant) {
  const reservation = state === "PRE_AUTHORIZED" || state === "CANCELED";
  const intent = await createIntent(api, owner, {
    amount: state === "FAILED" ? 20_000 : 100,
    captureMethod: reservation ? "RESERVATION" : "DIRECT",
  });
  const id = intent.paymentId;
  switch (state) {
    case "CREATED":
      break;
    case "REQUIRES_ACTION":
    case "FAILED":
      await proceed(api, id, serverHeaders(owner));
      break;
    case "PRE_AUTHORIZED":
    case "SUCCEEDED":
      await payWithOtp(api, owner, id);
      break;
    case "CANCELED":
      await payWithOtp(api, owner, id);
      await release(api, owner, id);
      break;
    case "REFUNDED":
      await payWithOtp(api, owner, id);
      await refund(api, owner, id);
      break;
    case "PARTIALLY_REFUNDED":
      await payWithOtp(api, owner, id);
      await refund(api, owner, id, { description: "part", amount: 10 });
      break;
  }
  expect((await paymentRow(id)).state).toBe(state);
  return intent;
}

describe("the interface's transitions, over HTTP", () => {
  it("(none) -> CREATED on create, with clientSecret and expiresAt", async () => {
    const intent = await createIntent(api, merchant);
    expect(intent).toMatchObject({ clientSecret: expect.stringMatching(/^pa_/), amount: 1500 });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(1);
  });

  it("CREATED -> REQUIRES_ACTION (12) on proceed with WALLET_V2 when an OTP is needed", async () => {
    const intent = await createIntent(api, merchant);
    const response = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(response.body.data).toMatchObject({
      statusCode: 12,
      require3DS: true,
      metadata: { payUrl: expect.stringContaining("/pay/otp/") },
    });
  });

  it("CREATED -> SUCCEEDED (2) on proceed with immediate success, payUrl empty", async () => {
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone });
    const response = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    expect(response.body.data).toMatchObject({ statusCode: 2, require3DS: false, metadata: { payUrl: "" } });
  });

  it("CREATED -> FAILED (3) when the provider rejects (insufficient balance)", async () => {
    const intent = await createIntent(api, merchant, { amount: 10_000.01 });
    expect((await proceed(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(3);
  });

  it("REQUIRES_ACTION -> SUCCEEDED (2) when the buyer completes the OTP of a DIRECT payment", async () => {
    const intent = await createIntent(api, merchant);
    expect((await payWithOtp(api, merchant, intent.paymentId)).statusCode).toBe(2);
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(2);
  });

  it("REQUIRES_ACTION -> FAILED (3) when the buyer fails the OTP of a DIRECT payment", async () => {
    const intent = await createIntent(api, merchant);
    const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
    const token = tokenOf(proceeded.body.data.metadata.payUrl);
    let result;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      result = await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "999999" });
    }
    expect(result).toMatchObject({ statusCode: 3, state: "FAILED" });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(3);
  });

  it("REQUIRES_ACTION -> PRE_AUTHORIZED (13) when the buyer completes the OTP of a RESERVATION", async () => {
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    expect((await payWithOtp(api, merchant, intent.paymentId)).statusCode).toBe(13);
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(13);
  });

  it("PRE_AUTHORIZED -> SUCCEEDED (2) on capture", async () => {
    const intent = await paymentIn("PRE_AUTHORIZED");
    expect((await capture(api, merchant, intent.paymentId)).body.data).toMatchObject({ statusCode: 2 });
  });

  it("PRE_AUTHORIZED -> CANCELED (10) on release", async () => {
    const intent = await paymentIn("PRE_AUTHORIZED");
    expect((await release(api, merchant, intent.paymentId)).body.data).toMatchObject({
      status: "Reversed",
      statusCode: 10,
    });
  });

  it("SUCCEEDED -> REFUNDED (4) when the total refunded equals the amount", async () => {
    const intent = await paymentIn("SUCCEEDED");
    expect((await refund(api, merchant, intent.paymentId)).body.data).toMatchObject({
      statusCode: 4,
      remainingRefundableAmount: 0,
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(4);
  });

  it("SUCCEEDED -> PARTIALLY_REFUNDED (16) when less is refunded, and again on a further partial refund", async () => {
    const intent = await paymentIn("SUCCEEDED");
    await refund(api, merchant, intent.paymentId, { description: "a", amount: 10 });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(16);
    await refund(api, merchant, intent.paymentId, { description: "b", amount: 10 });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(16);
  });

  it.each(["CREATED", "REQUIRES_ACTION", "PRE_AUTHORIZED"] as const)(
    "%s: any merchant_auth call past 30 minutes plus the grace fails with 410 intent_expired",
    async (state) => {
      const own = await createMerchant();
      const intent = await paymentIn(state, own);
      await advanceClock(api, own, 30 * 60 + 31);
      const response = await check(api, intent.paymentId, browserHeaders(own, intent.clientSecret));
      expect(response.status).toBe(410);
      expect(response.body.error.name).toBe("intent_expired");
    },
  );
});

// What each operation answers in each state: "ok" or the contract's error name.
const OPERATIONS = {
  proceed: (id: string) => proceed(api, id, serverHeaders(merchant)),
  capture: (id: string) => capture(api, merchant, id),
  release: (id: string) => release(api, merchant, id),
  refund: (id: string) => refund(api, merchant, id),
};

const EXPECTED: Record<Reachable, Record<keyof typeof OPERATIONS, "ok" | "invalid_state">> = {
  CREATED: { proceed: "ok", capture: "invalid_state", release: "invalid_state", refund: "invalid_state" },
  REQUIRES_ACTION: {
    proceed: "invalid_state",
    capture: "invalid_state",
    release: "invalid_state",
    refund: "invalid_state",
  },
  PRE_AUTHORIZED: { proceed: "invalid_state", capture: "ok", release: "ok", refund: "invalid_state" },
  SUCCEEDED: { proceed: "invalid_state", capture: "invalid_state", release: "invalid_state", refund: "ok" },
  FAILED: { proceed: "invalid_state", capture: "invalid_state", release: "invalid_state", refund: "invalid_state" },
  CANCELED: { proceed: "invalid_state", capture: "invalid_state", release: "invalid_state", refund: "invalid_state" },
  REFUNDED: { proceed: "invalid_state", capture: "invalid_state", release: "invalid_state", refund: "invalid_state" },
  PARTIALLY_REFUNDED: { proceed: "invalid_state", capture: "invalid_state", release: "invalid_state", refund: "ok" },
};

const matrix = (Object.keys(EXPECTED) as Reachable[]).flatMap((state) =>
  (Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[]).map(
    (operation) => [state, operation, EXPECTED[state][operation]] as const,
  ),
);

describe("every operation in every state", () => {
  it.each(matrix)("%s + %s -> %s", async (state, operation, expected) => {
    const intent = await paymentIn(state);
    const response = await OPERATIONS[operation](intent.paymentId);
    if (expected === "ok") {
      expect(response.status).toBe(200);
    } else {
      expect(response.status).toBe(409);
      expect(response.body.error.name).toBe(expected);
      expect((await paymentRow(intent.paymentId)).state).toBe(state);
    }
  });
});
