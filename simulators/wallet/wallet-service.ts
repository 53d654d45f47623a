import { eq } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { walletOperations } from "../wallet/wallet-tables";
import type { OtpChallenge } from "../../lib/providers/wallet/port";
import { sandboxWallet } from "./sandbox-wallet";
import type {
  MovementRequest,
  OtpChallengeBody,
  WalletBalanceBody,
  WalletOperation,
} from "../../lib/providers/wallet/wallet-protocol";
import { walletQrService } from "./wallet-qr-service";
import {
  assertKnownAccount,
  assertUuid,
  lockHold,
  move,
  onHold,
  refAccount,
  WalletServiceError,
  type Applied,
} from "./wallet-operations";

export { refusal, WalletServiceError, type Applied } from "./wallet-operations";

/**
 * The sandbox wallet as a service of its own: the protocol's operations on the sandbox
 * ledger (sandbox-wallet.ts), each in a transaction of its own, each
 * money call applied once per operationId. This is the reference implementation an operator
 * reads next to docs/wallet-protocol.openapi.yaml.
 */

const challengeBody = (paymentId: string, challenge: OtpChallenge): OtpChallengeBody => ({
  paymentId,
  attemptsLeft: challenge.attemptsLeft,
  expiresAt: challenge.expiresAt.toISOString(),
  resendAvailableAt: challenge.resendAvailableAt.toISOString(),
});

export interface WalletServiceOptions {
  db: Db;
  /** What the QR code of a request encodes: a link into the wallet app. */
  qrContent(request: { qrRequestId: string; paymentId: string }): string;
}

export function walletService({ db, qrContent }: WalletServiceOptions) {
  return {
    async balance(query: { merchantId: string; customerId: string; currency: string }): Promise<WalletBalanceBody> {
      assertKnownAccount({ account: query });
      const balance = await sandboxWallet.balance(db, {
        serviceId: query.merchantId,
        customerId: query.customerId,
        currency: query.currency,
      });
      return { currency: query.currency, ...balance };
    },

    debit: (request: MovementRequest, now: Date) => move(db, "debit", request, now),
    hold: (request: MovementRequest, now: Date) => move(db, "hold", request, now),
    credit: (request: MovementRequest, now: Date) => move(db, "credit", request, now),

    async captureHold(
      holdId: string,
      request: { operationId: string; amountMinor: number },
      now: Date,
    ): Promise<Applied> {
      return onHold(
        db,
        holdId,
        { operationId: request.operationId, kind: "capture", content: request, now },
        async (tx) => {
          const locked = await lockHold(tx, holdId);
          if (request.amountMinor > locked.amountMinor) {
            throw new WalletServiceError(
              "amount_exceeds_hold",
              `The hold is ${locked.amountMinor}; ${request.amountMinor} cannot be captured.`,
            );
          }
          const { capturedMinor, releasedMinor } = await sandboxWallet.captureHold(tx, {
            paymentId: locked.paymentId,
            amountMinor: request.amountMinor,
          });
          return { status: "succeeded", amountMinor: capturedMinor, capturedMinor, releasedMinor, reference: holdId };
        },
      );
    },

    async releaseHold(holdId: string, request: { operationId: string }, now: Date): Promise<Applied> {
      return onHold(
        db,
        holdId,
        { operationId: request.operationId, kind: "release", content: request, now },
        async (tx) => {
          const locked = await lockHold(tx, holdId);
          const { releasedMinor } = await sandboxWallet.releaseHold(tx, { paymentId: locked.paymentId });
          return { status: "succeeded", amountMinor: releasedMinor, releasedMinor, reference: holdId };
        },
      );
    },

    async operation(operationId: string): Promise<WalletOperation> {
      const [row] = await db.select().from(walletOperations).where(eq(walletOperations.operationId, operationId));
      if (!row) throw new WalletServiceError("unknown_operation", `No operation ${operationId}.`);
      return row.response as WalletOperation;
    },

    /** Opens the payment's challenge (sending the code), or answers the open one: one statement. */
    async startOtp(request: { paymentId: string; account: { merchantId: string; customerId: string } }, now: Date) {
      assertKnownAccount(request);
      assertUuid(request.paymentId, "invalid_request", "payment");
      const account = refAccount({ ...request, currency: "" });
      const { challenge, created } = await sandboxWallet.startOtp(db, { paymentId: request.paymentId, account, now });
      return { challenge: challengeBody(request.paymentId, challenge), created };
    },

    async otpChallenge(paymentId: string): Promise<OtpChallengeBody> {
      assertUuid(paymentId, "unknown_challenge", "challenge for payment");
      const challenge = await sandboxWallet.otpChallenge(db, { paymentId });
      if (!challenge) throw new WalletServiceError("unknown_challenge", "No code was sent for this payment.");
      return challengeBody(paymentId, challenge);
    },

    async resendOtp(paymentId: string, now: Date): Promise<OtpChallengeBody> {
      const current = await this.otpChallenge(paymentId);
      if (current.attemptsLeft === 0)
        throw new WalletServiceError("code_exhausted", "No attempt remains for this payment.", { attemptsLeft: 0 });
      const resend = await db.transaction((tx) => sandboxWallet.resendOtp(tx, { paymentId, now }));
      if (!resend.ok) {
        const resendAvailableAt = resend.resendAvailableAt.toISOString();
        throw new WalletServiceError("resend_too_soon", `A new code can be sent at ${resendAvailableAt}.`, {
          resendAvailableAt,
        });
      }
      return challengeBody(paymentId, resend.challenge);
    },

    async verifyOtp(
      paymentId: string,
      code: string,
      now: Date,
    ): Promise<{ outcome: "verified"; attemptsLeft: number }> {
      assertUuid(paymentId, "unknown_challenge", "challenge for payment");
      const verification = await db.transaction((tx) => sandboxWallet.verifyOtp(tx, { paymentId, code, now }));
      switch (verification.outcome) {
        case "verified":
          return { outcome: "verified", attemptsLeft: verification.attemptsLeft };
        case "wrong_code": {
          const { attemptsLeft } = verification;
          if (attemptsLeft === 0)
            throw new WalletServiceError("code_exhausted", "No attempt remains for this payment.", { attemptsLeft });
          throw new WalletServiceError("code_wrong", "The code is not right.", { attemptsLeft });
        }
        case "code_expired":
          throw new WalletServiceError("code_expired", "The code has expired; ask for a new one.", {
            attemptsLeft: verification.attemptsLeft,
          });
        case "no_challenge":
          throw new WalletServiceError("unknown_challenge", "No code was sent for this payment.");
      }
    },
    ...walletQrService({ db, qrContent }),
  };
}

export type WalletService = ReturnType<typeof walletService>;
