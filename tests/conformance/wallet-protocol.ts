import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletClient, WalletProtocolError } from "@/lib/providers/wallet/http-wallet-client";
import { isSignedWalletRequest, signWalletRequest, type WalletAccount } from "@/lib/providers/wallet/wallet-protocol";

/**
 * The wallet-service protocol's conformance suite (docs/wallet-protocol.openapi.yaml): what
 * any wallet service must answer, driven over HTTP through the gateway's own client. The
 * sandbox wallet runs it in tests/conformance/wallet-sandbox.test.ts; an operator runs it
 * against a wallet of their own by setting WALLET_CONFORMANCE_URL (see that file).
 */
export interface ConformanceTarget {
  baseUrl(): string;
  secret: string;
  /** A fresh account holding at least `fundsMinor` available in `currency`. */
  newAccount(): WalletAccount;
  currency: string;
  fundsMinor: number;
  /** The code the wallet sends its test customers. */
  otpCode: string;
  /** The wallet implements the sandbox's extensions (answering a QR request, the clock header). */
  sandboxExtensions: boolean;
}

const opId = (what: string) => `conf_${what}_${randomUUID()}`;

async function expectWalletError(promise: Promise<unknown>, status: number, name: string) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WalletProtocolError);
  expect((error as WalletProtocolError).status).toBe(status);
  expect((error as WalletProtocolError).errorName).toBe(name);
  return error as WalletProtocolError;
}

export function describeWalletConformance(target: ConformanceTarget) {
  const client = (sandboxNow?: Date) =>
    walletClient({ baseUrl: target.baseUrl(), secret: target.secret, timeoutMs: 10_000, sandboxNow });
  const { currency } = target;
  const movement = (account: WalletAccount, amountMinor: number, what: string) => ({
    operationId: opId(what),
    paymentId: randomUUID(),
    account,
    currency,
    amountMinor,
  });
  const available = async (account: WalletAccount) => (await client().balance({ ...account, currency })).availableMinor;

  describe("signatures", () => {
    it("refuses a request without a signature, with a wrong one, or a stale one", async () => {
      const url = `${target.baseUrl().replace(/\/+$/, "")}/v1/operations/${opId("sig")}`;
      const path = new URL(url).pathname;
      const unsigned = await fetch(url);
      const forged = await fetch(url, {
        headers: signWalletRequest(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, {
          method: "GET",
          pathAndQuery: path,
          body: "",
        }),
      });
      const stale = await fetch(url, {
        headers: signWalletRequest(target.secret, {
          method: "GET",
          pathAndQuery: path,
          body: "",
          now: new Date(Date.now() - 10 * 60_000),
        }),
      });
      const movedPath = await fetch(url, {
        headers: signWalletRequest(target.secret, { method: "GET", pathAndQuery: `${path}x`, body: "" }),
      });
      for (const response of [unsigned, forged, stale, movedPath]) {
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { name: string } }).error.name).toBe("invalid_signature");
      }
    });
  });

  describe("money calls", () => {
    it("debits once per operationId, finds the debit by its key, and refuses the key with other content", async () => {
      const account = target.newAccount();
      const before = await available(account);
      const request = movement(account, 12_345, "debit");
      const first = await client().debit(request);
      const repeated = await client().debit(request);
      expect(first).toMatchObject({
        operationId: request.operationId,
        kind: "debit",
        status: "succeeded",
        amountMinor: 12_345,
      });
      expect(repeated).toEqual(first);
      expect(await available(account)).toBe(before - 12_345);
      expect(await client().operation(request.operationId)).toEqual(first);
      await expectWalletError(client().debit({ ...request, amountMinor: 1 }), 409, "idempotency_conflict");
      expect(await client().operation(opId("never-sent"))).toBeNull();
    });

    it("refuses a debit above the available balance, remembers the refusal, and moves nothing", async () => {
      const account = target.newAccount();
      const before = await available(account);
      const request = movement(account, before + 1, "too-much");
      await expectWalletError(client().debit(request), 422, "insufficient_funds");
      await expectWalletError(client().debit(request), 422, "insufficient_funds");
      expect(await client().operation(request.operationId)).toMatchObject({
        status: "refused",
        error: "insufficient_funds",
      });
      expect(await available(account)).toBe(before);
    });

    it("holds, captures part of the hold and releases the rest, once", async () => {
      const account = target.newAccount();
      const before = await client().balance({ ...account, currency });
      const hold = await client().hold(movement(account, 30_000, "hold"));
      expect(hold).toMatchObject({ kind: "hold", status: "succeeded" });
      expect(await client().balance({ ...account, currency })).toMatchObject({
        heldMinor: before.heldMinor + 30_000,
        availableMinor: before.availableMinor - 30_000,
      });
      const capture = { operationId: opId("capture"), amountMinor: 20_000 };
      await expectWalletError(
        client().captureHold(hold.reference!, { operationId: opId("over"), amountMinor: 30_001 }),
        409,
        "amount_exceeds_hold",
      );
      const captured = await client().captureHold(hold.reference!, capture);
      expect(captured).toMatchObject({ kind: "capture", capturedMinor: 20_000, releasedMinor: 10_000 });
      expect(await client().captureHold(hold.reference!, capture)).toEqual(captured);
      await expectWalletError(
        client().captureHold(hold.reference!, { operationId: opId("again"), amountMinor: 1 }),
        409,
        "hold_closed",
      );
      await expectWalletError(
        client().releaseHold(hold.reference!, { operationId: opId("late-release") }),
        409,
        "hold_closed",
      );
      expect(await client().balance({ ...account, currency })).toMatchObject({
        balanceMinor: before.balanceMinor - 20_000,
        heldMinor: before.heldMinor,
        availableMinor: before.availableMinor - 20_000,
      });
    });

    it("releases a whole hold back to the customer, once", async () => {
      const account = target.newAccount();
      const before = await available(account);
      const hold = await client().hold(movement(account, 5_000, "hold"));
      const release = { operationId: opId("release") };
      const released = await client().releaseHold(hold.reference!, release);
      expect(released).toMatchObject({ kind: "release", status: "succeeded", releasedMinor: 5_000 });
      expect(await client().releaseHold(hold.reference!, release)).toEqual(released);
      expect(await available(account)).toBe(before);
      await expectWalletError(
        client().captureHold(`missing-${randomUUID()}`, { operationId: opId("nohold"), amountMinor: 1 }),
        404,
        "unknown_hold",
      );
    });

    it("credits a refund once per operationId", async () => {
      const account = target.newAccount();
      const before = await available(account);
      const request = movement(account, 777, "credit");
      const credited = await client().credit(request);
      expect(credited).toMatchObject({ kind: "credit", status: "succeeded", amountMinor: 777 });
      expect(await client().credit(request)).toEqual(credited);
      expect(await available(account)).toBe(before + 777);
    });
  });

  describe("one-time codes", () => {
    const start = (account: WalletAccount, paymentId = randomUUID()) =>
      client().startOtp({ paymentId, account, currency, amountMinor: 1_000, merchantName: "Conformance" });

    it("starts one challenge per payment, refuses an early resend, accepts the right code", async () => {
      const account = target.newAccount();
      const paymentId = randomUUID();
      const first = await start(account, paymentId);
      expect(first.status).toBe(201);
      expect(first.data).toMatchObject({ paymentId, attemptsLeft: 5 });
      expect((await start(account, paymentId)).status).toBe(200);
      const tooSoon = await expectWalletError(client().resendOtp(paymentId), 409, "resend_too_soon");
      expect(tooSoon.body.resendAvailableAt).toBe(first.data.resendAvailableAt);
      const wrong = await expectWalletError(client().verifyOtp(paymentId, "000000"), 422, "code_wrong");
      expect(wrong.body.attemptsLeft).toBe(4);
      expect(await client().verifyOtp(paymentId, target.otpCode)).toEqual({ outcome: "verified", attemptsLeft: 4 });
      expect(await client().otpChallenge(randomUUID())).toBeNull();
    });

    it("answers code_exhausted on the fifth wrong code, and the right code no longer passes", async () => {
      const paymentId = randomUUID();
      await start(target.newAccount(), paymentId);
      for (let attempt = 1; attempt < 5; attempt++)
        await expectWalletError(client().verifyOtp(paymentId, "000000"), 422, "code_wrong");
      const exhausted = await expectWalletError(client().verifyOtp(paymentId, "000000"), 422, "code_exhausted");
      expect(exhausted.body.attemptsLeft).toBe(0);
      await expectWalletError(client().verifyOtp(paymentId, target.otpCode), 422, "code_exhausted");
    });

    it.runIf(target.sandboxExtensions)("expires a code after 5 minutes and sends a new one after 30 s", async () => {
      const paymentId = randomUUID();
      const { data } = await start(target.newAccount(), paymentId);
      const later = new Date(Date.parse(data.expiresAt) + 1_000);
      await expectWalletError(client(later).verifyOtp(paymentId, target.otpCode), 422, "code_expired");
      const resent = await client(later).resendOtp(paymentId);
      expect(Date.parse(resent.expiresAt)).toBeGreaterThan(later.getTime());
      expect(await client(later).verifyOtp(paymentId, target.otpCode)).toMatchObject({ outcome: "verified" });
    });
  });

  describe("QR requests", () => {
    const callbacks: { body: unknown; signed: boolean }[] = [];
    let callbackUrl = "";
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString();
        const headers = new Headers(
          Object.entries(request.headers).map(([key, value]): [string, string] => [key, String(value)]),
        );
        callbacks.push({
          body: JSON.parse(body),
          signed: isSignedWalletRequest(target.secret, {
            method: "POST",
            pathAndQuery: request.url ?? "/",
            body,
            headers,
          }),
        });
        response.statusCode = 204;
        response.end();
      });
    });
    beforeAll(async () => {
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/wallet/callbacks`;
    });
    afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    const create = (account: WalletAccount, captureMethod: "DIRECT" | "RESERVATION" = "DIRECT") => ({
      operationId: opId("qr"),
      paymentId: randomUUID(),
      account,
      currency,
      amountMinor: 4_200,
      captureMethod,
      callbackUrl,
    });

    it("creates a request once per operationId, shows it pending, and cancels it", async () => {
      const request = create(target.newAccount());
      const created = await client().createQr(request);
      expect(created.status).toBe(201);
      expect(created.data).toMatchObject({
        paymentId: request.paymentId,
        operationId: request.operationId,
        status: "pending",
        approvalCode: null,
      });
      expect(created.data.qrContent).not.toBe("");
      const repeated = await client().createQr(request);
      expect(repeated.status).toBe(200);
      expect(repeated.data.qrRequestId).toBe(created.data.qrRequestId);
      expect(await client().qrRequest(created.data.qrRequestId)).toMatchObject({ status: "pending" });
      expect(await client().cancelQr(created.data.qrRequestId)).toMatchObject({ status: "canceled" });
      expect(await client().cancelQr(created.data.qrRequestId)).toMatchObject({ status: "canceled" });
    });

    it.runIf(target.sandboxExtensions)(
      "on approval debits under the request's operationId and posts a signed callback",
      async () => {
        const account = target.newAccount();
        const before = await available(account);
        const request = create(account);
        const { data } = await client().createQr(request);
        const approved = await client().answerQrInSandbox(data.qrRequestId, "approve");
        expect(approved).toMatchObject({ status: "approved", approvalCode: expect.stringMatching(/^[A-Z2-9]{6}$/) });
        expect(await available(account)).toBe(before - 4_200);
        expect(await client().operation(request.operationId)).toMatchObject({
          kind: "debit",
          status: "succeeded",
          reference: approved.reference,
        });
        await expect
          .poll(() =>
            callbacks.find((c) => (c.body as { data: { qrRequestId: string } }).data.qrRequestId === data.qrRequestId),
          )
          .toEqual({
            body: { type: "qr_request.answered", data: approved },
            signed: true,
          });
        const answered = await expectWalletError(client().cancelQr(data.qrRequestId), 409, "qr_request_answered");
        expect(answered.body.qrRequest).toMatchObject({ status: "approved" });
      },
    );

    it.runIf(target.sandboxExtensions)("rejects an approval the balance cannot cover, holding nothing", async () => {
      const account = target.newAccount();
      const before = await available(account);
      const { data } = await client().createQr({ ...create(account, "RESERVATION"), amountMinor: before + 1 });
      expect(await client().answerQrInSandbox(data.qrRequestId, "approve")).toMatchObject({
        status: "rejected",
        approvalCode: null,
        reference: null,
      });
      expect(await available(account)).toBe(before);
    });
  });
}
