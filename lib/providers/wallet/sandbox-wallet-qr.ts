import { randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { ulid } from "ulid";
import { isValidPageToken, pageTokenFor } from "../../auth/client-secret";
import { getConfig } from "../../config";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { walletQrRequests } from "../../db/schema";
import type { QrRequest, WalletProvider } from "./port";

/** The page-token kind of the sandbox wallet app: a hosted page token does not open it, nor the reverse. */
export const WALLET_APP_PAGE = "wallet-app";

/**
 * The sandbox wallet app's link for a payment, which the QR code encodes. No locale segment:
 * the page follows the language of the phone that scans it.
 */
export function sandboxWalletAppUrl(gatewayKey: Buffer, paymentId: string): string {
  const token = pageTokenFor(gatewayKey, WALLET_APP_PAGE, paymentId);
  return `${getConfig().publicBaseUrl}/sandbox/wallet/${paymentId}?token=${token}`;
}

export function isValidWalletAppToken(gatewayKey: Buffer, paymentId: string, token: string): boolean {
  return isValidPageToken(gatewayKey, WALLET_APP_PAGE, paymentId, token);
}

// Uppercase letters and digits without the look-alikes (0/O, 1/I), as a cashier would read them out.
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function approvalCode(): string {
  return Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
}

type QrRow = typeof walletQrRequests.$inferSelect;

const view = (row: QrRow): QrRequest => ({
  orderId: row.orderId,
  transactionId: row.id,
  status: row.status,
  approvalCode: row.approvalCode,
});

const qrRequestQuery = (db: Db) =>
  prepared(db, "wallet_qr_request", (db) =>
    db
      .select()
      .from(walletQrRequests)
      .where(eq(walletQrRequests.paymentId, sql.placeholder("paymentId")))
      .prepare("wallet_qr_request"),
  );

/** The QR half of the sandbox wallet, on the wallet_qr_requests table. */
export const sandboxWalletQr: Pick<WalletProvider, "startQr" | "answerQr" | "qrRequest" | "qrContent"> = {
  async startQr(tx, { paymentId, now }) {
    const [row] = await tx
      .insert(walletQrRequests)
      .values({ paymentId, orderId: `qr_order_${ulid()}`, createdAt: now })
      .returning();
    return view(row!);
  },

  async answerQr(tx, { paymentId, status, now }) {
    const [row] = await tx
      .update(walletQrRequests)
      .set({ status, approvalCode: status === "approved" ? approvalCode() : null, answeredAt: now })
      .where(and(eq(walletQrRequests.paymentId, paymentId), eq(walletQrRequests.status, "pending")))
      .returning();
    if (!row) throw new Error(`no pending QR request for payment ${paymentId}`);
    return view(row);
  },

  async qrRequest(db, { paymentId }) {
    const [row] = await qrRequestQuery(db).execute({ paymentId });
    return row ? view(row) : null;
  },

  async qrContent(db, { paymentId }) {
    const [row] = await qrRequestQuery(db).execute({ paymentId });
    return row ? sandboxWalletAppUrl(await getGatewayKey(db), paymentId) : null;
  },
};
