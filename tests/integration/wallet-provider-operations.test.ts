import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runAudit } from "@/lib/audit/run-audit";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, paymentRefunds, providerOperations } from "@/lib/db/schema";
import { walletOperations } from "@/simulators/wallet/wallet-tables";
import { expireOpenPayments, releaseStaleReservations } from "@/lib/payments/operations/expire-payments";
import { beginProviderOperation } from "@/lib/provider-operations";
import { reconcileProviderOperations } from "@/lib/provider-operation-registry/reconcile-provider-operations";
import { walletCapture, walletOperationRequest } from "@/lib/payment-methods/wallet/wallet-operations";
import { connectedWallet, installWalletTransport } from "@/lib/wallet-connection/wallet-connection";
import { ProviderCallInTransactionError } from "@/lib/db/transaction-guard";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  capture,
  check,
  createIntent,
  notificationsOf,
  OPENING_DZD,
  paidIntent,
  paymentRow,
  proceed,
  proceedToOtp,
  reconcileOperationsLater,
  refund,
  release,
  serverHeaders,
  serviceIdOf,
  walletLedger,
} from "../support/payments";
import { failingMoneyCalls, refusingMoneyCalls, type WalletFault } from "../support/wallet-faults";

// The client's own time limit, short so a wallet that never answers ends the call quickly.
vi.hoisted(() => {
  process.env.WALLET_PROVIDER_TIMEOUT_MS = "300";
});

const { api } = useTestGateway();
beforeAll(() => installWalletTransport(null));
afterEach(() => installWalletTransport(null));

const operationsOf = async (paymentId: string) =>
  (await getDb()).select().from(providerOperations).where(eq(providerOperations.paymentId, paymentId));
const walletCallsOf = async (paymentId: string) =>
  (await getDb()).select().from(walletOperations).where(eq(walletOperations.paymentId, paymentId));

/** Every payment these tests made, for the audit at the end. */
const paymentsSeen: string[] = [];
const seen = <T extends { paymentId: string }>(intent: T): T => {
  paymentsSeen.push(intent.paymentId);
  return intent;
};

async function reservation(amount = 700) {
  const merchant = await createMerchant();
  const intent = seen(await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount }));
  return { merchant, intent };
}

async function expectLedgerInAgreement(
  merchant: Awaited<ReturnType<typeof createMerchant>>,
  phone: string,
  expected: { balanceMinor: number; heldMinor: number },
) {
  const ledger = await walletLedger(merchant, phone, "DZD");
  expect(ledger).toMatchObject({
    ...expected,
    ledgerBalanceMinor: expected.balanceMinor,
    ledgerHeldMinor: expected.heldMinor,
  });
}

describe("wallet capture, release and refund through the provider-operation boundary", () => {
  for (const fault of ["before", "after", "timeout", "5xx"] as WalletFault[]) {
    it(`answers 503 when the wallet call fails (${fault}), and the retry with the same key captures once`, async () => {
      const { merchant, intent } = await reservation();
      installWalletTransport(failingMoneyCalls(fault));
      const key = { "idempotency-key": `cap-${fault}-${intent.paymentId}` };

      const failed = await capture(api, merchant, intent.paymentId, { amount: 500 }, key);
      expect(failed.status).toBe(503);
      expect(failed.body.error.name).toBe("provider_unavailable");
      expect(Number(failed.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");
      // The open capture is part of the payment's lock.
      const other = await release(api, merchant, intent.paymentId);
      expect(other.status).toBe(409);
      expect(other.body.error.name).toBe("request_in_progress");
      expect(Number(other.headers.get("retry-after"))).toBeGreaterThan(0);
      // The key stays with the request that failed: another amount under it is a conflict, not a new capture.
      const changed = await capture(api, merchant, intent.paymentId, { amount: 400 }, key);
      expect(changed.status).toBe(422);
      expect(changed.body.error.name).toBe("idempotency_conflict");

      const retried = await capture(api, merchant, intent.paymentId, { amount: 500 }, key);
      expect(retried.status).toBe(200);
      expect(retried.body.data.statusCode).toBe(2);
      expect((await capture(api, merchant, intent.paymentId, { amount: 500 }, key)).status).toBe(200);

      expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "SUCCEEDED", capturedMinor: 50_000 });
      expect(
        await (await getDb()).select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, intent.paymentId)),
      ).toHaveLength(1);
      expect((await walletCallsOf(intent.paymentId)).filter((call) => call.kind === "capture")).toHaveLength(1);
      await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD - 50_000, heldMinor: 0 });
      expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
        "payment.pre_authorized",
        "payment.captured",
      ]);
    });
  }

  it("reconciles a release the wallet applied but never answered: funds back once, one notification", async () => {
    const { merchant, intent } = await reservation();
    installWalletTransport(failingMoneyCalls("after"));
    const failed = await release(api, merchant, intent.paymentId);
    expect(failed.status).toBe(503);
    installWalletTransport(null);

    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
    expect((await paymentRow(intent.paymentId)).state).toBe("CANCELED");
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.released",
    ]);
  });

  it("reconciles a refund the wallet answered with 5xx twice: credited once, one notification", async () => {
    const merchant = await createMerchant();
    const intent = seen(await paidIntent(api, merchant, { amount: 1000 }));
    const faults = failingMoneyCalls("5xx", 2);
    installWalletTransport(faults);
    const failed = await refund(api, merchant, intent.paymentId, { description: "partial", amount: 400 });
    expect(failed.status).toBe(503);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0); // The second 5xx: still unknown.
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
    expect(faults.failed()).toBe(2);

    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "PARTIALLY_REFUNDED", refundedMinor: 40_000 });
    expect((await walletCallsOf(intent.paymentId)).filter((call) => call.kind === "credit")).toHaveLength(1);
    await expectLedgerInAgreement(merchant, intent.body.userId, {
      balanceMinor: OPENING_DZD - 100_000 + 40_000,
      heldMinor: 0,
    });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.succeeded",
      "payment.refunded",
    ]);
  });

  it("keeps an open refund's amount reserved: a parallel refund may take only the rest", async () => {
    const merchant = await createMerchant();
    const intent = seen(await paidIntent(api, merchant, { amount: 1000 }));
    installWalletTransport(failingMoneyCalls("after"));
    expect((await refund(api, merchant, intent.paymentId, { description: "first", amount: 700 })).status).toBe(503);
    installWalletTransport(null);

    const tooMuch = await refund(api, merchant, intent.paymentId, { description: "second", amount: 400 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.name).toBe("amount_exceeds_refundable");
    const rest = await refund(api, merchant, intent.paymentId, { description: "second", amount: 300 });
    expect(rest.status).toBe(200);
    expect(rest.body.data.totalRefundedAmount).toBe(300);

    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "REFUNDED", refundedMinor: 100_000 });
    expect(
      await (await getDb()).select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, intent.paymentId)),
    ).toHaveLength(2);
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).filter((n) => n.type === "payment.refunded")).toHaveLength(2);
  });

  it("reconciles after the lease, once, a capture whose gateway died between wallet answer and settle", async () => {
    const { merchant, intent } = await reservation();
    const db = await getDb();
    // What a request does before it dies: the operation recorded, the wallet called (and applying it), no settle.
    const payment = await paymentRow(intent.paymentId);
    const operation = await db.transaction((tx) =>
      beginProviderOperation(tx, {
        id: `op_killed_${intent.paymentId.replace(/-/g, "")}`,
        paymentId: payment.id,
        provider: "wallet",
        kind: "capture",
        amountMinor: 30_000,
        request: walletOperationRequest(payment),
      }),
    );
    await walletCapture.call(operation);
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD - 30_000, heldMinor: 0 });
    expect((await paymentRow(intent.paymentId)).state).toBe("PRE_AUTHORIZED");

    // Within its lease the (dead) request still owns it.
    expect(await reconcileProviderOperations(db, { paymentId: intent.paymentId })).toBe(0);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "SUCCEEDED", capturedMinor: 30_000 });
    expect((await walletCallsOf(intent.paymentId)).filter((call) => call.kind === "capture")).toHaveLength(1);
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD - 30_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
    ]);
  });

  it("passes by a 7-day-old reservation whose capture is still open, and releases the others behind it", async () => {
    const merchant = await createMerchant();
    const open = seen(await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 100 }));
    const behind = seen(await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 200 }));
    installWalletTransport(failingMoneyCalls("5xx"));
    expect((await capture(api, merchant, open.paymentId, { amount: 60 })).status).toBe(503);
    installWalletTransport(null);
    expect((await advanceClock(api, merchant, 7 * 24 * 3600 + 60)).status).toBe(200);

    const db = await getDb();
    // Oldest first, one to a batch: the open capture's payment comes first and must not hold the other back.
    expect(await releaseStaleReservations(db, { serviceId: await serviceIdOf(merchant), limit: 1 })).toBe(1);
    expect((await paymentRow(behind.paymentId)).state).toBe("CANCELED");
    expect((await paymentRow(open.paymentId)).state).toBe("PRE_AUTHORIZED");

    expect(await reconcileOperationsLater(open.paymentId)).toBe(1);
    expect(await paymentRow(open.paymentId)).toMatchObject({ state: "SUCCEEDED", capturedMinor: 6_000 });
    expect(await releaseStaleReservations(db, { serviceId: await serviceIdOf(merchant) })).toBe(0);
  });

  it("returns a 7-day-old hold once: the sweep records the release, reconciliation ends a failed call", async () => {
    const { merchant, intent } = await reservation();
    expect((await advanceClock(api, merchant, 7 * 24 * 3600 + 60)).status).toBe(200);
    installWalletTransport(failingMoneyCalls("before"));
    expect(await releaseStaleReservations(await getDb(), { serviceId: await serviceIdOf(merchant) })).toBe(1);
    expect((await paymentRow(intent.paymentId)).state).toBe("CANCELED");
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD, heldMinor: 70_000 });
    installWalletTransport(null);

    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD, heldMinor: 0 });
    expect(
      (await operationsOf(intent.paymentId)).map((operation) => [operation.kind, operation.status]).sort(),
    ).toEqual([
      ["hold", "succeeded"],
      ["release", "succeeded"],
    ]);
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.released",
    ]);
  });
});

describe("the wallet charge after the OTP through the provider-operation boundary", () => {
  for (const [fault, captureMethod] of [
    ["after", "DIRECT"],
    ["timeout", "RESERVATION"],
    ["before", "DIRECT"],
    ["5xx", "RESERVATION"],
  ] as const) {
    const moneyCall = captureMethod === "DIRECT" ? "debit" : "hold";
    it(`answers 503 when the ${moneyCall} fails (${fault}); submitting the code again charges once`, async () => {
      const merchant = await createMerchant();
      const intent = seen(await createIntent(api, merchant, { amount: 250, captureMethod }));
      const token = await proceedToOtp(api, merchant, intent.paymentId);
      installWalletTransport(failingMoneyCalls(fault));
      const db = await getDb();
      await expect(submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" })).rejects.toMatchObject({
        errorName: "provider_unavailable",
      });
      expect((await paymentRow(intent.paymentId)).state).toBe("REQUIRES_ACTION");

      const again = await submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" });
      const expected =
        captureMethod === "DIRECT"
          ? { state: "SUCCEEDED", balanceMinor: OPENING_DZD - 25_000, heldMinor: 0 }
          : { state: "PRE_AUTHORIZED", balanceMinor: OPENING_DZD, heldMinor: 25_000 };
      expect(again.state).toBe(expected.state);
      expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
      expect((await walletCallsOf(intent.paymentId)).map((call) => call.kind)).toEqual([
        captureMethod === "DIRECT" ? "debit" : "hold",
      ]);
      await expectLedgerInAgreement(merchant, intent.body.userId, {
        balanceMinor: expected.balanceMinor,
        heldMinor: expected.heldMinor,
      });
      const event = captureMethod === "DIRECT" ? "payment.succeeded" : "payment.pre_authorized";
      expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([event]);
    });
  }

  it("reconciles an applied, unanswered debit when the buyer leaves, never expiring the payment", async () => {
    const merchant = await createMerchant();
    const intent = seen(await createIntent(api, merchant, { amount: 250 }));
    const token = await proceedToOtp(api, merchant, intent.paymentId);
    installWalletTransport(failingMoneyCalls("after"));
    const db = await getDb();
    await expect(submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" })).rejects.toMatchObject({
      errorName: "provider_unavailable",
    });
    installWalletTransport(null);
    // Past the intent's 30 minutes: the sweep leaves it alone while the charge is open.
    expect((await advanceClock(api, merchant, 40 * 60)).status).toBe(200);
    await expireOpenPayments(db, { serviceId: await serviceIdOf(merchant) });
    expect((await paymentRow(intent.paymentId)).state).toBe("REQUIRES_ACTION");

    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");
    await expireOpenPayments(db, { serviceId: await serviceIdOf(merchant) });
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD - 25_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("refuses a wallet call made inside a database transaction", async () => {
    const db = await getDb();
    const wallet = await connectedWallet();
    const account = { merchantId: randomUUID(), customerId: randomUUID(), currency: "DZD" };
    await expect(db.transaction(async () => wallet.balance(account))).rejects.toBeInstanceOf(
      ProviderCallInTransactionError,
    );
    await expect(wallet.balance(account)).resolves.toMatchObject({ availableMinor: OPENING_DZD });
  });
});

describe("a wallet charge the wallet has not answered keeps the payment", () => {
  it("owner's proceed in PROCESSING (1): no expiry, proceed, card; retry or reconciliation charges once", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = seen(await createIntent(api, merchant, { userId: customer.phone, amount: 6000 }));
    const owner = userAuth(merchant, accessToken, { "x-platform": "IOS" });
    installWalletTransport(failingMoneyCalls("after"));
    const first = await proceed(api, intent.paymentId, owner);
    expect(first.status).toBe(503);
    expect(first.body.error.name).toBe("provider_unavailable");
    installWalletTransport(null);
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data).toMatchObject({
      statusCode: 1,
      paymentMethodName: "WALLET_V2",
      endUserMessage: "Your payment is being processed.",
    });

    // The merchant tries the wallet again (the balance the debit reduced would fail it) and a card: both refused.
    for (const body of [{ paymentMethodCode: "WALLET_V2" }, { paymentMethodCode: "CARD_PROVIDER" }]) {
      const other = await proceed(api, intent.paymentId, serverHeaders(merchant), body);
      expect(other.status).toBe(409);
      expect(other.body.error.name).toBe("invalid_state");
    }
    // Past the intent's 30 minutes the sweep leaves it alone while the charge is open.
    expect((await advanceClock(api, merchant, 40 * 60)).status).toBe(200);
    await expireOpenPayments(await getDb(), { serviceId: await serviceIdOf(merchant) });
    expect((await paymentRow(intent.paymentId)).state).toBe("PROCESSING");

    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "SUCCEEDED",
      paymentMethodCode: "WALLET_V2",
      platform: "IOS",
    });
    expect((await walletCallsOf(intent.paymentId)).map((call) => call.kind)).toEqual(["debit"]);
    await expectLedgerInAgreement(merchant, customer.phone, { balanceMinor: OPENING_DZD - 600_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("owner's proceed retried after a 503 takes the same charge up again: 13 once, one hold", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = seen(
      await createIntent(api, merchant, { userId: customer.phone, amount: 300, captureMethod: "RESERVATION" }),
    );
    const owner = userAuth(merchant, accessToken, { "x-platform": "ANDROID" });
    installWalletTransport(failingMoneyCalls("timeout"));
    expect((await proceed(api, intent.paymentId, owner)).status).toBe(503);
    installWalletTransport(null);
    const retry = await proceed(api, intent.paymentId, owner);
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ statusCode: 13, status: "Funds reserved" });
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(0);
    expect((await walletCallsOf(intent.paymentId)).map((call) => call.kind)).toEqual(["hold"]);
    await expectLedgerInAgreement(merchant, customer.phone, { balanceMinor: OPENING_DZD, heldMinor: 30_000 });
    // Settled: a further proceed is refused as for any payment past CREATED.
    expect((await proceed(api, intent.paymentId, owner)).status).toBe(409);
  });

  it("owner's proceed retried with its key after reconciliation settled it: 2; without the key, 409", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = seen(await createIntent(api, merchant, { userId: customer.phone, amount: 120 }));
    const owner = userAuth(merchant, accessToken, { "x-platform": "WEB" });
    const key = { "idempotency-key": `owner-${intent.paymentId}` };
    installWalletTransport(failingMoneyCalls("5xx"));
    expect(
      (
        await api.post(
          `/api/v1/payments/intents/${intent.paymentId}/proceed`,
          { paymentMethodCode: "WALLET_V2" },
          { ...owner, ...key },
        )
      ).status,
    ).toBe(503);
    installWalletTransport(null);
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");

    const retry = await api.post(
      `/api/v1/payments/intents/${intent.paymentId}/proceed`,
      { paymentMethodCode: "WALLET_V2" },
      { ...owner, ...key },
    );
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ statusCode: 2, status: "Payment succeeded", require3DS: false });
    const replay = await api.post(
      `/api/v1/payments/intents/${intent.paymentId}/proceed`,
      { paymentMethodCode: "WALLET_V2" },
      { ...owner, ...key },
    );
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await proceed(api, intent.paymentId, owner)).status).toBe(409);
    expect(
      (
        await api.post(
          `/api/v1/payments/intents/${intent.paymentId}/proceed`,
          { paymentMethodCode: "WALLET_V2" },
          { ...owner, "idempotency-key": "another" },
        )
      ).status,
    ).toBe(409);
    expect((await walletCallsOf(intent.paymentId)).map((call) => call.kind)).toEqual(["debit"]);
    await expectLedgerInAgreement(merchant, customer.phone, { balanceMinor: OPENING_DZD - 12_000, heldMinor: 0 });
  });

  it("owner's proceed retried with its key past grace, charge out: the charge taken up (2), never 410", async () => {
    const merchant = await createMerchant();
    const customerPhone = (await createCustomerToken(merchant)).customer.phone;
    const intent = seen(await createIntent(api, merchant, { userId: customerPhone, amount: 90 }));
    // The owner proceeds at minute 25 (with a token of that time) and retries at minute 31, past the 30-minute
    // intent's grace.
    expect((await advanceClock(api, merchant, 25 * 60)).status).toBe(200);
    const { accessToken } = await createCustomerToken(merchant, { phone: customerPhone });
    const owner = {
      ...userAuth(merchant, accessToken, { "x-platform": "IOS" }),
      "idempotency-key": `late-${intent.paymentId}`,
    };
    const proceedAsOwner = () =>
      api.post(`/api/v1/payments/intents/${intent.paymentId}/proceed`, { paymentMethodCode: "WALLET_V2" }, owner);
    installWalletTransport(failingMoneyCalls("after"));
    expect((await proceedAsOwner()).status).toBe(503);
    installWalletTransport(null);
    expect((await advanceClock(api, merchant, 6 * 60)).status).toBe(200);

    const retry = await proceedAsOwner();
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ statusCode: 2, status: "Payment succeeded" });
    // The outcome, not a 410, is what the key keeps.
    const replay = await proceedAsOwner();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toMatchObject({ statusCode: 2 });
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");
    expect((await walletCallsOf(intent.paymentId)).map((call) => call.kind)).toEqual(["debit"]);
    await expectLedgerInAgreement(merchant, customerPhone, { balanceMinor: OPENING_DZD - 9_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });

  it("owner's proceed, unknown account: fails at once (3, wallet_refused), takes nothing, notifies once", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = seen(await createIntent(api, merchant, { userId: customer.phone, amount: 75 }));
    installWalletTransport(refusingMoneyCalls());
    const refused = await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "IOS" }));
    installWalletTransport(null);
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({
      statusCode: 3,
      status: "Refused by the wallet (unknown_account)",
      require3DS: false,
    });
    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "FAILED",
      failureReason: "wallet_refused",
      paymentMethodCode: "WALLET_V2",
    });
    expect((await check(api, intent.paymentId, serverHeaders(merchant))).body.data).toMatchObject({
      statusCode: 3,
      endUserMessage: "Your payment was declined.",
    });
    expect(await walletCallsOf(intent.paymentId)).toEqual([]);
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("hosted OTP: the right code whose hold is refused fails the payment (3), not left awaiting a code", async () => {
    const merchant = await createMerchant();
    const intent = seen(await createIntent(api, merchant, { amount: 40, captureMethod: "RESERVATION" }));
    const token = await proceedToOtp(api, merchant, intent.paymentId);
    installWalletTransport(refusingMoneyCalls());
    const answer = await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "123456" });
    installWalletTransport(null);
    expect(answer).toMatchObject({ state: "FAILED", statusCode: 3 });
    expect(await paymentRow(intent.paymentId)).toMatchObject({ state: "FAILED", failureReason: "wallet_refused" });
    expect(await walletCallsOf(intent.paymentId)).toEqual([]);
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);
  });

  it("hosted OTP: right code, debit unanswered, 5th wrong code: no failure; reconciliation charges once", async () => {
    const merchant = await createMerchant();
    const intent = seen(await createIntent(api, merchant, { amount: 250 }));
    const token = await proceedToOtp(api, merchant, intent.paymentId);
    const db = await getDb();
    for (let wrong = 0; wrong < 4; wrong += 1)
      await submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "000000" });
    installWalletTransport(failingMoneyCalls("after"));
    await expect(submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "123456" })).rejects.toMatchObject({
      errorName: "provider_unavailable",
    });
    installWalletTransport(null);

    const late = await submitPaymentOtp(db, { paymentId: intent.paymentId, token, code: "000000" });
    expect(late).toMatchObject({ state: "REQUIRES_ACTION", statusCode: 12, attemptsLeft: 0 });
    expect(await reconcileOperationsLater(intent.paymentId)).toBe(1);
    expect((await paymentRow(intent.paymentId)).state).toBe("SUCCEEDED");
    await expectLedgerInAgreement(merchant, intent.body.userId, { balanceMinor: OPENING_DZD - 25_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });
});

describe("the books after every fault above", () => {
  it("passes the audit: these payments, wallet holds, books, notifications, provider operations agree", async () => {
    const db = await getDb();
    const report = await runAudit(db, {
      retrySchedule: [5, 300],
      deliverySlackSeconds: 60,
      reconciliationBoundSeconds: 900,
    });
    const ours = new Set(paymentsSeen);
    // The suite's database is shared with other files: only this file's payments are judged here.
    const violations = report.results.flatMap((result) =>
      (result.violations ?? [])
        .filter((violation) => ours.has(violation.subject))
        .map((violation) => `${result.name}: ${violation.detail}`),
    );
    expect(paymentsSeen.length).toBeGreaterThan(10);
    expect(violations).toEqual([]);
  });
});
