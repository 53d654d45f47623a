import { createHash, randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ulid } from "ulid";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { walletHolds, walletOperations, walletQrRequests } from "../db/schema";
import type { OtpChallenge } from "../providers/wallet/port";
import { sandboxWallet } from "../providers/wallet/sandbox-wallet";
import type {
  MovementRequest,
  OperationKind,
  OtpChallengeBody,
  QrCreateRequest,
  QrRequestBody,
  WalletBalanceBody,
  WalletErrorName,
  WalletOperation,
} from "../providers/wallet/wallet-protocol";

/**
 * The sandbox wallet as a service of its own: the protocol's operations on the sandbox
 * ledger (lib/providers/wallet/sandbox-wallet.ts), each in a transaction of its own, each
 * money call applied once per operationId. This is the reference implementation an operator
 * reads next to docs/wallet-protocol.openapi.yaml.
 */

export class WalletServiceError extends Error {
  constructor(
    readonly errorName: WalletErrorName,
    message: string,
    readonly details: { attemptsLeft?: number; resendAvailableAt?: string; qrRequest?: QrRequestBody } = {},
  ) {
    super(message);
  }
}

const refAccount = (request: { account: { merchantId: string; customerId: string }; currency: string }) => ({
  serviceId: request.account.merchantId,
  customerId: request.account.customerId,
  currency: request.currency,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The sandbox knows every customer (accounts open on first use) but only by the gateway's uuids. */
function assertKnownAccount(request: { account: { merchantId: string; customerId: string } }) {
  if (!UUID.test(request.account.merchantId) || !UUID.test(request.account.customerId)) {
    throw new WalletServiceError("unknown_account", "The sandbox wallet knows accounts by the gateway's uuids only.");
  }
}

function assertUuid(value: string, error: WalletErrorName, what: string) {
  if (!UUID.test(value)) throw new WalletServiceError(error, `No ${what} ${value}.`);
}

function requestHash(kind: OperationKind, content: unknown): string {
  return createHash("sha256").update(`${kind}\0${JSON.stringify(content)}`).digest("hex");
}

export interface Applied {
  operation: WalletOperation;
  /** False when the operationId was seen before and nothing moved now. */
  created: boolean;
}

type Outcome = Omit<WalletOperation, "operationId" | "kind" | "paymentId" | "createdAt">;

/**
 * Runs `apply` and stores its outcome under the operationId, in one transaction; a repeat
 * answers the stored outcome. Two concurrent first calls: the primary key lets one commit,
 * the other rolls back its movement and answers the stored outcome.
 */
async function once(
  db: Db,
  call: { operationId: string; kind: OperationKind; paymentId: string; content: unknown; now: Date },
  apply: (tx: Db) => Promise<Outcome>,
): Promise<Applied> {
  const hash = requestHash(call.kind, call.content);
  const stored = await storedOperation(db, call.operationId, hash);
  if (stored) return { operation: stored, created: false };
  try {
    return await db.transaction(async (tx) => {
      const outcome = await apply(tx);
      const operation: WalletOperation = {
        operationId: call.operationId,
        kind: call.kind,
        paymentId: call.paymentId,
        createdAt: call.now.toISOString(),
        ...outcome,
      };
      await tx.insert(walletOperations).values({
        operationId: call.operationId,
        kind: call.kind,
        requestHash: hash,
        paymentId: call.paymentId,
        status: operation.status,
        response: operation,
      });
      return { operation, created: true };
    });
  } catch (error) {
    if (!isUniqueViolation(error, "wallet_operations_pkey")) throw error;
    const raced = await storedOperation(db, call.operationId, hash);
    if (!raced) throw error;
    return { operation: raced, created: false };
  }
}

async function storedOperation(db: Db, operationId: string, hash: string): Promise<WalletOperation | null> {
  const [row] = await db.select().from(walletOperations).where(eq(walletOperations.operationId, operationId));
  if (!row) return null;
  if (row.requestHash !== hash) {
    throw new WalletServiceError("idempotency_conflict", `Operation ${operationId} was sent before with other content.`);
  }
  return row.response as WalletOperation;
}

/** A refused call is stored too, so a repeat refuses the same way; the HTTP layer answers its error. */
export function refusal(operation: WalletOperation): WalletServiceError | null {
  if (operation.status !== "refused") return null;
  return new WalletServiceError(operation.error ?? "insufficient_funds", "The available balance does not cover the amount.");
}

async function move(db: Db, kind: "debit" | "hold" | "credit", request: MovementRequest, now: Date): Promise<Applied> {
  assertKnownAccount(request);
  assertUuid(request.paymentId, "invalid_request", "payment");
  const movement = { account: refAccount(request), paymentId: request.paymentId, amountMinor: request.amountMinor };
  return once(db, { operationId: request.operationId, kind, paymentId: request.paymentId, content: request, now }, async (tx) => {
    if (kind === "credit") {
      const { reference } = await sandboxWallet.credit(tx, movement);
      return { status: "succeeded", amountMinor: request.amountMinor, reference };
    }
    const outcome = await sandboxWallet[kind](tx, movement);
    return outcome.ok
      ? { status: "succeeded", amountMinor: request.amountMinor, reference: outcome.reference }
      : { status: "refused", error: outcome.reason, amountMinor: request.amountMinor, reference: null };
  });
}

/** A capture or release of an existing hold, applied once per operationId. */
async function onHold(
  db: Db,
  holdId: string,
  call: { operationId: string; kind: "capture" | "release"; content: object; now: Date },
  apply: (tx: Db) => Promise<Outcome>,
): Promise<Applied> {
  assertUuid(holdId, "unknown_hold", "hold");
  const [hold] = await db.select().from(walletHolds).where(eq(walletHolds.id, holdId));
  if (!hold) throw new WalletServiceError("unknown_hold", `No hold ${holdId}.`);
  return once(db, { ...call, paymentId: hold.paymentId, content: { holdId, ...call.content } }, apply);
}

async function lockHold(tx: Db, holdId: string) {
  const [hold] = await tx.select().from(walletHolds).where(eq(walletHolds.id, holdId)).for("update");
  if (!hold) throw new WalletServiceError("unknown_hold", `No hold ${holdId}.`);
  if (hold.status !== "active") throw new WalletServiceError("hold_closed", `The hold is ${hold.status} already.`);
  return hold;
}

// Uppercase letters and digits without the look-alikes (0/O, 1/I), as a cashier would read them out.
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const approvalCode = () => Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");

type QrRow = typeof walletQrRequests.$inferSelect;

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
  const qrBody = (row: QrRow): QrRequestBody => ({
    qrRequestId: row.id,
    orderId: row.orderId,
    paymentId: row.paymentId,
    operationId: row.operationId ?? "",
    status: row.status,
    approvalCode: row.approvalCode,
    reference: row.reference,
    qrContent: qrContent({ qrRequestId: row.id, paymentId: row.paymentId }),
  });

  async function qrRow(dbOrTx: Db, qrRequestId: string, lock = false): Promise<QrRow> {
    assertUuid(qrRequestId, "unknown_qr_request", "QR request");
    const query = dbOrTx.select().from(walletQrRequests).where(eq(walletQrRequests.id, qrRequestId));
    const [row] = lock ? await query.for("update") : await query;
    if (!row?.operationId) throw new WalletServiceError("unknown_qr_request", `No QR request ${qrRequestId}.`);
    return row;
  }

  return {
    async balance(query: { merchantId: string; customerId: string; currency: string }): Promise<WalletBalanceBody> {
      assertKnownAccount({ account: query });
      const balance = await sandboxWallet.balance(db, { serviceId: query.merchantId, customerId: query.customerId, currency: query.currency });
      return { currency: query.currency, ...balance };
    },

    debit: (request: MovementRequest, now: Date) => move(db, "debit", request, now),
    hold: (request: MovementRequest, now: Date) => move(db, "hold", request, now),
    credit: (request: MovementRequest, now: Date) => move(db, "credit", request, now),

    async captureHold(holdId: string, request: { operationId: string; amountMinor: number }, now: Date): Promise<Applied> {
      return onHold(db, holdId, { operationId: request.operationId, kind: "capture", content: request, now }, async (tx) => {
        const locked = await lockHold(tx, holdId);
        if (request.amountMinor > locked.amountMinor) {
          throw new WalletServiceError("amount_exceeds_hold", `The hold is ${locked.amountMinor}; ${request.amountMinor} cannot be captured.`);
        }
        const { capturedMinor, releasedMinor } = await sandboxWallet.captureHold(tx, { paymentId: locked.paymentId, amountMinor: request.amountMinor });
        return { status: "succeeded", amountMinor: capturedMinor, capturedMinor, releasedMinor, reference: holdId };
      });
    },

    async releaseHold(holdId: string, request: { operationId: string }, now: Date): Promise<Applied> {
      return onHold(db, holdId, { operationId: request.operationId, kind: "release", content: request, now }, async (tx) => {
        const locked = await lockHold(tx, holdId);
        const { releasedMinor } = await sandboxWallet.releaseHold(tx, { paymentId: locked.paymentId });
        return { status: "succeeded", amountMinor: releasedMinor, releasedMinor, reference: holdId };
      });
    },

    async operation(operationId: string): Promise<WalletOperation> {
      const [row] = await db.select().from(walletOperations).where(eq(walletOperations.operationId, operationId));
      if (!row) throw new WalletServiceError("unknown_operation", `No operation ${operationId}.`);
      return row.response as WalletOperation;
    },

    /** Opens the payment's challenge (sending the code), or answers the open one. */
    async startOtp(request: { paymentId: string; account: { merchantId: string; customerId: string } }, now: Date) {
      assertKnownAccount(request);
      assertUuid(request.paymentId, "invalid_request", "payment");
      const existing = await sandboxWallet.otpChallenge(db, { paymentId: request.paymentId });
      if (existing) return { challenge: challengeBody(request.paymentId, existing), created: false };
      try {
        const challenge = await db.transaction((tx) =>
          sandboxWallet.startOtp(tx, { paymentId: request.paymentId, account: { ...refAccount({ ...request, currency: "" }) }, now }),
        );
        return { challenge: challengeBody(request.paymentId, challenge), created: true };
      } catch (error) {
        const raced = await sandboxWallet.otpChallenge(db, { paymentId: request.paymentId });
        if (!raced) throw error;
        return { challenge: challengeBody(request.paymentId, raced), created: false };
      }
    },

    async otpChallenge(paymentId: string): Promise<OtpChallengeBody> {
      assertUuid(paymentId, "unknown_challenge", "challenge for payment");
      const challenge = await sandboxWallet.otpChallenge(db, { paymentId });
      if (!challenge) throw new WalletServiceError("unknown_challenge", "No code was sent for this payment.");
      return challengeBody(paymentId, challenge);
    },

    async resendOtp(paymentId: string, now: Date): Promise<OtpChallengeBody> {
      const current = await this.otpChallenge(paymentId);
      if (current.attemptsLeft === 0) throw new WalletServiceError("code_exhausted", "No attempt remains for this payment.", { attemptsLeft: 0 });
      const resend = await db.transaction((tx) => sandboxWallet.resendOtp(tx, { paymentId, now }));
      if (!resend.ok) {
        const resendAvailableAt = resend.resendAvailableAt.toISOString();
        throw new WalletServiceError("resend_too_soon", `A new code can be sent at ${resendAvailableAt}.`, { resendAvailableAt });
      }
      return challengeBody(paymentId, resend.challenge);
    },

    async verifyOtp(paymentId: string, code: string, now: Date): Promise<{ outcome: "verified"; attemptsLeft: number }> {
      assertUuid(paymentId, "unknown_challenge", "challenge for payment");
      const verification = await db.transaction((tx) => sandboxWallet.verifyOtp(tx, { paymentId, code, now }));
      switch (verification.outcome) {
        case "verified":
          return { outcome: "verified", attemptsLeft: verification.attemptsLeft };
        case "wrong_code": {
          const { attemptsLeft } = verification;
          if (attemptsLeft === 0) throw new WalletServiceError("code_exhausted", "No attempt remains for this payment.", { attemptsLeft });
          throw new WalletServiceError("code_wrong", "The code is not right.", { attemptsLeft });
        }
        case "code_expired":
          throw new WalletServiceError("code_expired", "The code has expired; ask for a new one.", { attemptsLeft: verification.attemptsLeft });
        case "no_challenge":
          throw new WalletServiceError("unknown_challenge", "No code was sent for this payment.");
      }
    },

    async createQr(request: QrCreateRequest, now: Date): Promise<{ qr: QrRequestBody; created: boolean }> {
      assertKnownAccount(request);
      assertUuid(request.paymentId, "invalid_request", "payment");
      const values = {
        paymentId: request.paymentId,
        operationId: request.operationId,
        serviceId: request.account.merchantId,
        customerId: request.account.customerId,
        currency: request.currency,
        amountMinor: request.amountMinor,
        captureMethod: request.captureMethod,
        callbackUrl: request.callbackUrl,
      };
      const [existing] = await db.select().from(walletQrRequests).where(eq(walletQrRequests.operationId, request.operationId));
      if (existing) {
        const same = (Object.keys(values) as (keyof typeof values)[]).every((key) => existing[key] === values[key]);
        if (!same) throw new WalletServiceError("idempotency_conflict", `Operation ${request.operationId} was sent before with other content.`);
        return { qr: qrBody(existing), created: false };
      }
      const [row] = await db
        .insert(walletQrRequests)
        .values({ ...values, orderId: `qr_order_${ulid()}`, createdAt: now })
        .returning();
      return { qr: qrBody(row!), created: true };
    },

    async qrRequest(qrRequestId: string): Promise<QrRequestBody> {
      return qrBody(await qrRow(db, qrRequestId));
    },

    async cancelQr(qrRequestId: string, now: Date): Promise<QrRequestBody> {
      return db.transaction(async (tx) => {
        const row = await qrRow(tx, qrRequestId, true);
        if (row.status === "canceled") return qrBody(row);
        if (row.status !== "pending") {
          throw new WalletServiceError("qr_request_answered", `The customer answered first: ${row.status}.`, { qrRequest: qrBody(row) });
        }
        const [canceled] = await tx
          .update(walletQrRequests)
          .set({ status: "canceled", answeredAt: now })
          .where(eq(walletQrRequests.id, row.id))
          .returning();
        return qrBody(canceled!);
      });
    },

    /**
     * The customer's answer in the wallet app. Approve debits (DIRECT) or holds (RESERVATION)
     * under the request's operationId, in the transaction that records the answer; without
     * the funds the request is rejected. The caller then posts qrRequestAnswered.
     */
    async answerQr(qrRequestId: string, outcome: "approve" | "decline", now: Date): Promise<{ qr: QrRequestBody; callbackUrl: string }> {
      const qr = await db.transaction(async (tx) => {
        const row = await qrRow(tx, qrRequestId, true);
        if (row.status !== "pending") {
          throw new WalletServiceError("qr_request_answered", `The request is ${row.status} already.`, { qrRequest: qrBody(row) });
        }
        let status: "approved" | "declined" | "rejected" = "declined";
        let reference: string | null = null;
        if (outcome === "approve") {
          const kind = row.captureMethod === "RESERVATION" ? "hold" : "debit";
          const movement = {
            account: { serviceId: row.serviceId!, customerId: row.customerId!, currency: row.currency! },
            paymentId: row.paymentId,
            amountMinor: row.amountMinor!,
          };
          const moved = await sandboxWallet[kind](tx, movement);
          status = moved.ok ? "approved" : "rejected";
          reference = moved.ok ? moved.reference : null;
          const operation: WalletOperation = {
            operationId: row.operationId!,
            kind,
            status: moved.ok ? "succeeded" : "refused",
            ...(moved.ok ? {} : { error: moved.reason }),
            paymentId: row.paymentId,
            amountMinor: movement.amountMinor,
            reference,
            createdAt: now.toISOString(),
          };
          await tx.insert(walletOperations).values({
            operationId: operation.operationId,
            kind,
            requestHash: requestHash(kind, { qrRequestId }),
            paymentId: row.paymentId,
            status: operation.status,
            response: operation,
          });
        }
        const [answered] = await tx
          .update(walletQrRequests)
          .set({ status, reference, approvalCode: status === "approved" ? approvalCode() : null, answeredAt: now })
          .where(and(eq(walletQrRequests.id, row.id), eq(walletQrRequests.status, "pending")))
          .returning();
        return answered!;
      });
      return { qr: qrBody(qr), callbackUrl: qr.callbackUrl! };
    },
  };
}

export type WalletService = ReturnType<typeof walletService>;
