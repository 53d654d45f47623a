import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { isUniqueViolation } from "../../lib/db/errors";
import { walletHolds, walletOperations } from "../wallet/wallet-tables";
import { sandboxWallet } from "./sandbox-wallet";
import type {
  MovementRequest,
  OperationKind,
  QrRequestBody,
  WalletErrorName,
  WalletOperation,
} from "../../lib/providers/wallet/wallet-protocol";

// The sandbox wallet service's building blocks: its named errors, the account and id checks,
// and "apply once per operationId" for every money call (wallet-service.ts composes them).

export class WalletServiceError extends Error {
  constructor(
    readonly errorName: WalletErrorName,
    message: string,
    readonly details: { attemptsLeft?: number; resendAvailableAt?: string; qrRequest?: QrRequestBody } = {},
  ) {
    super(message);
  }
}

export const refAccount = (request: { account: { merchantId: string; customerId: string }; currency: string }) => ({
  serviceId: request.account.merchantId,
  customerId: request.account.customerId,
  currency: request.currency,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The sandbox knows every customer (accounts open on first use) but only by the gateway's uuids. */
export function assertKnownAccount(request: { account: { merchantId: string; customerId: string } }) {
  if (!UUID.test(request.account.merchantId) || !UUID.test(request.account.customerId)) {
    throw new WalletServiceError("unknown_account", "The sandbox wallet knows accounts by the gateway's uuids only.");
  }
}

export function assertUuid(value: string, error: WalletErrorName, what: string) {
  if (!UUID.test(value)) throw new WalletServiceError(error, `No ${what} ${value}.`);
}

export function requestHash(kind: OperationKind, content: unknown): string {
  return createHash("sha256")
    .update(`${kind}\0${JSON.stringify(content)}`)
    .digest("hex");
}

export interface Applied {
  operation: WalletOperation;
  /** False when the operationId was seen before and nothing moved now. */
  created: boolean;
}

export type Outcome = Omit<WalletOperation, "operationId" | "kind" | "paymentId" | "createdAt">;

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
    throw new WalletServiceError(
      "idempotency_conflict",
      `Operation ${operationId} was sent before with other content.`,
    );
  }
  return row.response as WalletOperation;
}

/** A refused call is stored too, so a repeat refuses the same way; the HTTP layer answers its error. */
export function refusal(operation: WalletOperation): WalletServiceError | null {
  if (operation.status !== "refused") return null;
  return new WalletServiceError(
    operation.error ?? "insufficient_funds",
    "The available balance does not cover the amount.",
  );
}

export async function move(
  db: Db,
  kind: "debit" | "hold" | "credit",
  request: MovementRequest,
  now: Date,
): Promise<Applied> {
  assertKnownAccount(request);
  assertUuid(request.paymentId, "invalid_request", "payment");
  const movement = { account: refAccount(request), paymentId: request.paymentId, amountMinor: request.amountMinor };
  return once(
    db,
    { operationId: request.operationId, kind, paymentId: request.paymentId, content: request, now },
    async (tx) => {
      if (kind === "credit") {
        const { reference } = await sandboxWallet.credit(tx, movement);
        return { status: "succeeded", amountMinor: request.amountMinor, reference };
      }
      const outcome = await sandboxWallet[kind](tx, movement);
      return outcome.ok
        ? { status: "succeeded", amountMinor: request.amountMinor, reference: outcome.reference }
        : { status: "refused", error: outcome.reason, amountMinor: request.amountMinor, reference: null };
    },
  );
}

/** A capture or release of an existing hold, applied once per operationId. */
export async function onHold(
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

export async function lockHold(tx: Db, holdId: string) {
  const [hold] = await tx.select().from(walletHolds).where(eq(walletHolds.id, holdId)).for("update");
  if (!hold) throw new WalletServiceError("unknown_hold", `No hold ${holdId}.`);
  if (hold.status !== "active") throw new WalletServiceError("hold_closed", `The hold is ${hold.status} already.`);
  return hold;
}
