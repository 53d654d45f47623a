import { eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import { getConfig } from "../../config";
import { getDb, type Db } from "../../db/client";
import { payments, providerOperations, services } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { logger } from "../../log";
import {
  beginProviderOperation,
  completeProviderOperation,
  ProviderRefusedError,
  ProviderUnavailableError,
  type ProviderAnswer,
  type ProviderOperationRow,
} from "../../provider-operations";
import { WalletProtocolError, type WalletClient } from "../../providers/wallet/http-wallet-client";
import { connectedWallet, walletAccountOf } from "../../wallet-connection/wallet-connection";
import type { QrRequestBody } from "../../providers/wallet/wallet-protocol";
import { applyTransition } from "../../payments/core/apply-transition";
import { failAsExpired } from "../../payments/core/expire-payment";
import { FAILURE_REASON, STATUS_TEXT } from "../../payments/core/payment-messages";
import { isPastGrace } from "../../payments/core/payment-expiry";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { walletChargeOperationId } from "./wallet-charge-record";
import { askWallet } from "./wallet-operations";
import { BUYER_CAUSE, causeRequestFields, type StateChangeCause } from "../../payments/core/state-change-cause";

/*
 * A QR payment's charge: the wallet opens the QR request before the proceed's transaction,
 * with the charge operation's id as its operationId, and the customer's approval makes the
 * debit or hold under that id. The proceed records the charge as an open provider operation
 * (kind debit or hold, with the QR request in its request); it is settled, exactly once, by
 * whichever learns the answer first: the wallet's signed callback (wallet-qr-callback.ts), or
 * the operation's provider call, which asks the wallet where the request stands
 * (reconciliation, the sandbox wallet app's answer) and, past the payment's grace, withdraws it.
 */

/** Where the wallet posts qrRequestAnswered (docs/wallet-protocol.openapi.yaml). */
export const QR_CALLBACK_PATH = "/api/wallet-callbacks/qr-requests";

/** Refusal codes of a QR charge besides the wallet's insufficient_funds (a rejected request). */
const QR_DECLINED = "qr_declined";
const QR_CANCELED = "qr_canceled";

/** Before the proceed's transaction: the QR request at the wallet (asking again answers the same request). */
export async function openQrRequest(payment: PaymentRow, now: Date): Promise<QrRequestBody> {
  const wallet = await connectedWallet({ now });
  const { data } = await wallet.createQr({
    operationId: walletChargeOperationId(payment.id),
    paymentId: payment.id,
    account: walletAccountOf(payment),
    currency: payment.currency,
    amountMinor: payment.amountMinor,
    captureMethod: payment.captureMethod,
    callbackUrl: `${getConfig().publicBaseUrl}${QR_CALLBACK_PATH}`,
  });
  return data;
}

/** In the proceed's transaction: the charge the request's approval makes, open until the answer. */
export function beginQrCharge(
  tx: Db,
  options: { payment: PaymentRow; qr: QrRequestBody; now: Date },
): Promise<ProviderOperationRow> {
  const { payment, qr, now } = options;
  return beginProviderOperation(tx, {
    id: walletChargeOperationId(payment.id),
    paymentId: payment.id,
    provider: "wallet",
    kind: payment.captureMethod === "DIRECT" ? "debit" : "hold",
    amountMinor: payment.amountMinor,
    request: {
      account: walletAccountOf(payment),
      currency: payment.currency,
      changes: {},
      qrRequestId: qr.qrRequestId,
      qrContent: qr.qrContent,
      // What settles it is the customer's answer in the wallet app (a withdrawal is an expiry: the system's).
      ...causeRequestFields(BUYER_CAUSE),
    },
    now,
  });
}

export const isQrCharge = (operation: Pick<ProviderOperationRow, "request">) =>
  typeof operation.request.qrRequestId === "string";

/** The payment's QR charge operation, or null for a payment that never opened a QR request. */
export async function findQrCharge(db: Db, paymentId: string): Promise<ProviderOperationRow | null> {
  const [operation] = await db
    .select()
    .from(providerOperations)
    .where(eq(providerOperations.id, walletChargeOperationId(paymentId)));
  return operation && operation.paymentId === paymentId && isQrCharge(operation) ? operation : null;
}

/** What the QR code shows (the wallet's qrContent), or null without a QR request. */
export async function qrContentOf(db: Db, paymentId: string): Promise<string | null> {
  const operation = await findQrCharge(db, paymentId);
  return typeof operation?.request.qrContent === "string" ? operation.request.qrContent : null;
}

/** The provider call of a QR charge: where the request stands; past the payment's grace, withdrawn. */
export async function askQrAnswer(operation: ProviderOperationRow): Promise<ProviderAnswer> {
  const qrRequestId = String(operation.request.qrRequestId);
  const { now, pastGrace } = await paymentClock(operation.paymentId!);
  const wallet = await connectedWallet({ now });
  const qr = await askWallet(() => wallet.qrRequest(qrRequestId));
  if (!qr) throw new ProviderRefusedError("unknown_qr_request", "The wallet holds no such QR request.");
  if (qr.status === "pending" && pastGrace) return qrAnswer(await askWallet(() => withdraw(wallet, qrRequestId)));
  return qrAnswer(qr);
}

async function withdraw(wallet: WalletClient, qrRequestId: string): Promise<QrRequestBody> {
  try {
    return await wallet.cancelQr(qrRequestId);
  } catch (error) {
    // The customer answered first: that answer stands, and the money agrees with it.
    if (error instanceof WalletProtocolError && error.body.qrRequest) return error.body.qrRequest;
    throw error;
  }
}

/** A QR request's answer as the charge's outcome. */
export function qrAnswer(qr: QrRequestBody): ProviderAnswer {
  switch (qr.status) {
    case "approved":
      return { reference: qr.reference, data: { approvalCode: qr.approvalCode } };
    case "pending":
      throw new ProviderUnavailableError("the customer has not answered the QR request yet");
    case "declined":
      throw new ProviderRefusedError(QR_DECLINED, "The customer declined the QR request.");
    case "rejected":
      throw new ProviderRefusedError("insufficient_funds", "The wallet could not cover the QR request.");
    case "canceled":
      throw new ProviderRefusedError(QR_CANCELED, "The QR request was withdrawn past the payment's grace.");
  }
}

/** Inside the settle transaction: what a refused QR charge does to the payment still awaiting it. */
export async function failQrCharge(
  tx: Db,
  options: { payment: PaymentRow; code: string; now: Date; cause: StateChangeCause },
): Promise<void> {
  const { payment, code, now, cause } = options;
  if (code === QR_DECLINED) {
    await applyTransition(tx, {
      payment,
      event: "fail",
      cause,
      now,
      changes: { failureReason: FAILURE_REASON.qrDeclined, status: STATUS_TEXT.qrDeclined },
    });
  } else if (code === QR_CANCELED) {
    await failAsExpired(tx, { payment, now });
  }
}

/**
 * After a proceed whose transaction refused the payment (expired, changed meanwhile, ...): a QR
 * request the wallet opened for it and no charge records is canceled, so an approval can never
 * take money the gateway does not know of. A concurrent proceed that did record it keeps it.
 */
export async function withdrawUnusedQrRequest(
  db: Db,
  options: { paymentId: string; qr: QrRequestBody | undefined },
): Promise<void> {
  if (!options.qr || (await findQrCharge(db, options.paymentId))) return;
  try {
    await (await connectedWallet()).cancelQr(options.qr.qrRequestId);
  } catch (error) {
    logger.warn({ err: error, paymentId: options.paymentId }, "could not withdraw an unused QR request");
  }
}

/** The payment's service clock (the sandbox clock may run ahead) and whether its grace is over. */
async function paymentClock(paymentId: string): Promise<{ now: Date; pastGrace: boolean }> {
  const db = await getDb();
  const [row] = await db
    .select({ expiresAt: payments.expiresAt, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row) throw new Error(`payment ${paymentId} vanished`);
  const now = serviceClock(row).now();
  return { now, pastGrace: isPastGrace(row, now) };
}
