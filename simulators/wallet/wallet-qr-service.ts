import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ulid } from "ulid";
import type { Db } from "../../lib/db/client";
import { walletOperations, walletQrRequests } from "../wallet/wallet-tables";
import { sandboxWallet } from "./sandbox-wallet";
import type { QrCreateRequest, QrRequestBody, WalletOperation } from "../../lib/providers/wallet/wallet-protocol";
import { assertKnownAccount, assertUuid, requestHash, WalletServiceError } from "./wallet-operations";

// Uppercase letters and digits without the look-alikes (0/O, 1/I), as a cashier would read them out.
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const approvalCode = () => Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");

type QrRow = typeof walletQrRequests.$inferSelect;

/** The wallet service's QR requests: create, read, cancel, and the customer's answer in the app. */
export function walletQrService({
  db,
  qrContent,
}: {
  db: Db;
  qrContent(request: { qrRequestId: string; paymentId: string }): string;
}) {
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
      const [existing] = await db
        .select()
        .from(walletQrRequests)
        .where(eq(walletQrRequests.operationId, request.operationId));
      if (existing) {
        const same = (Object.keys(values) as (keyof typeof values)[]).every((key) => existing[key] === values[key]);
        if (!same)
          throw new WalletServiceError(
            "idempotency_conflict",
            `Operation ${request.operationId} was sent before with other content.`,
          );
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
          throw new WalletServiceError("qr_request_answered", `The customer answered first: ${row.status}.`, {
            qrRequest: qrBody(row),
          });
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
    async answerQr(
      qrRequestId: string,
      outcome: "approve" | "decline",
      now: Date,
    ): Promise<{ qr: QrRequestBody; callbackUrl: string }> {
      const qr = await db.transaction(async (tx) => {
        const row = await qrRow(tx, qrRequestId, true);
        if (row.status !== "pending") {
          throw new WalletServiceError("qr_request_answered", `The request is ${row.status} already.`, {
            qrRequest: qrBody(row),
          });
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
