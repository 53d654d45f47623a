import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { resendPaymentOtp } from "@/lib/payment-methods/wallet/hosted/resend-payment-otp";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  check,
  createIntent,
  notificationsOf,
  proceed,
  serverHeaders,
  tokenOf,
  walletLedger,
} from "../support/payments";
import { describe as show } from "../support/security/envelope";

/**
 * Issue 7, security suite item 6 (credentials): a reused refresh token revokes its whole
 * family (RFC 9700), and OTP guessing stops at the fifth wrong code: the payment fails and
 * no later code, the right one included, moves any money. Guessing the page token instead
 * costs the buyer nothing.
 */

const { api } = useTestGateway();

type Merchant = Awaited<ReturnType<typeof createMerchant>>;
interface Pair {
  accessToken: string;
  refreshToken: string;
}

const refresh = (merchant: Merchant, pair: Pair) =>
  api.post(
    "/api/v1/customer-access-token/refresh",
    { accessToken: pair.accessToken, refreshToken: pair.refreshToken },
    clientAuth(merchant),
  );
/** A user_auth call that succeeds exactly while the access token is live. */
const listCards = (merchant: Merchant, accessToken: string) =>
  api.get("/api/v1/cards", userAuth(merchant, accessToken, { "x-platform": "API" }));

async function firstPair(merchant: Merchant): Promise<Pair> {
  const { customer } = await createCustomerToken(merchant);
  const response = await api.post("/api/v1/customer-access-token", { customerId: customer.id }, clientAuth(merchant));
  expect(response.status, show(response)).toBe(201);
  return response.body.data;
}

describe("refresh token rotation (contract 3, RFC 9700)", () => {
  it("a rotated-out refresh token presented again revokes every token of its family", async () => {
    const merchant = await createMerchant();
    const first = await firstPair(merchant);
    const second = (await refresh(merchant, first)).body.data as Pair;
    const third = (await refresh(merchant, second)).body.data as Pair;
    expect((await listCards(merchant, third.accessToken)).status).toBe(200);

    // The thief (or a confused client) replays the first refresh token.
    const replay = await refresh(merchant, first);
    expect(replay.status, show(replay)).toBe(401);
    expect(replay.body).toMatchObject({
      message: "Invalid or missing credentials.",
      error: { name: "invalid_credentials" },
    });

    // The legitimate holder's current pair died with it, and nothing of the family refreshes.
    for (const pair of [first, second, third]) {
      expect((await listCards(merchant, pair.accessToken)).status).toBe(401);
      expect((await refresh(merchant, pair)).status).toBe(401);
    }
  });

  it("two refreshes racing with one refresh token leave at most one winner, and then no live token", async () => {
    const merchant = await createMerchant();
    const pair = await firstPair(merchant);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(merchant, pair)));
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const answer of answers) expect([200, 401], show(answer)).toContain(answer.status);
    for (const winner of winners) expect((await listCards(merchant, winner.body.data.accessToken)).status).toBe(401);
    expect((await listCards(merchant, pair.accessToken)).status).toBe(401);
  });

  it("revoke ends the pair at once: neither its access token nor its refresh token works", async () => {
    const merchant = await createMerchant();
    const pair = await firstPair(merchant);
    const revoked = await api.delete(
      "/api/v1/customer-access-token/revoke",
      { accessToken: pair.accessToken },
      clientAuth(merchant),
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toBeNull();
    expect((await listCards(merchant, pair.accessToken)).status).toBe(401);
    expect((await refresh(merchant, pair)).status).toBe(401);
  });

  it("a pair is bound: a refresh token with another pair's access token is refused and rotates nothing", async () => {
    const merchant = await createMerchant();
    const [one, two] = [await firstPair(merchant), await firstPair(merchant)];
    const mixed = await refresh(merchant, { accessToken: two.accessToken, refreshToken: one.refreshToken });
    expect(mixed.status).toBe(401);
    expect((await refresh(merchant, one)).status).toBe(200);
  });
});

/** A DIRECT wallet payment awaiting its OTP, and the page token of its payUrl. */
async function awaitingOtp(merchant: Merchant) {
  const intent = await createIntent(api, merchant, { amount: 250 });
  const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
  expect(proceeded.body.data.statusCode, show(proceeded)).toBe(12);
  return { ...intent, token: tokenOf(proceeded.body.data.metadata.payUrl), phone: intent.body.userId };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "accepted";
  } catch (error) {
    if (error instanceof ApiError) return error.errorName;
    throw error;
  }
}

describe("OTP guessing (contract 9: 5 wrong codes fail the payment)", () => {
  it("the fifth wrong code fails the payment; later codes, the right one included, change nothing", async () => {
    const merchant = await createMerchant();
    const payment = await awaitingOtp(merchant);
    const db = await getDb();
    const before = await walletLedger(merchant, payment.phone, "DZD");

    const left: number[] = [];
    for (const code of ["000000", "111111", "222222", "333333"]) {
      const outcome = await submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code });
      expect(outcome.state).toBe("REQUIRES_ACTION");
      left.push(outcome.attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    const fifth = await submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code: "444444" });
    expect(fifth).toMatchObject({ state: "FAILED", statusCode: 3, attemptsLeft: 0 });

    expect(
      await refusal(submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code: "123456" })),
    ).toBe("invalid_state");
    expect(await refusal(resendPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token }))).toBe(
      "invalid_state",
    );
    const proceedAgain = await proceed(api, payment.paymentId, serverHeaders(merchant));
    expect(proceedAgain.status).toBe(409);

    expect((await check(api, payment.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(3);
    expect(await walletLedger(merchant, payment.phone, "DZD")).toEqual(before);
    expect((await notificationsOf(payment.paymentId)).map((row) => [row.type, row.data.remoteStatusCode])).toEqual([
      ["payment.failed", 3],
    ]);
  });

  it("wrong codes sent all at once still count to five and no further, and leave nothing to win", async () => {
    const merchant = await createMerchant();
    const payment = await awaitingOtp(merchant);
    const db = await getDb();
    const guesses = Array.from({ length: 12 }, (_, index) => String(100_000 + index));
    const outcomes = await Promise.all(
      guesses.map((code) =>
        submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code }).then(
          (outcome) => outcome.state,
          (error: unknown) => (error instanceof ApiError ? error.errorName : "crash"),
        ),
      ),
    );
    expect(outcomes.filter((state) => state === "REQUIRES_ACTION")).toHaveLength(4);
    expect(outcomes.filter((state) => state === "FAILED")).toHaveLength(1);
    expect(outcomes.filter((state) => state === "invalid_state")).toHaveLength(guesses.length - 5);
    expect(
      await refusal(submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code: "123456" })),
    ).toBe("invalid_state");
    expect((await check(api, payment.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(3);
  });

  it("guessing the page token instead costs no attempt: the buyer's five tries remain", async () => {
    const merchant = await createMerchant();
    const payment = await awaitingOtp(merchant);
    const db = await getDb();
    for (let guess = 0; guess < 10; guess += 1) {
      const token = payment.token.replace(/.{4}$/, guess.toString(16).padStart(4, "0"));
      expect(await refusal(submitPaymentOtp(db, { paymentId: payment.paymentId, token, code: "123456" }))).toBe(
        "invalid_credentials",
      );
    }
    const wrong = await submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code: "999999" });
    expect(wrong.attemptsLeft).toBe(4);
    const right = await submitPaymentOtp(db, { paymentId: payment.paymentId, token: payment.token, code: "123456" });
    expect(right).toMatchObject({ state: "SUCCEEDED", statusCode: 2 });
  });
});
