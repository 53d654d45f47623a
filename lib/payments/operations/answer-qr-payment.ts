import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { ApiError, invalidCredentials } from "../../errors/api-error";
import { providerUnavailable } from "../../provider-operations";
import { WalletProtocolError, WalletUnavailableError } from "../../providers/wallet/http-wallet-client";
import type { QrRequest } from "../../providers/wallet/port";
import { isValidWalletAppToken } from "../../wallet-sandbox/sandbox-wallet-qr";
import { connectedWallet } from "../../wallet-connection/wallet-connection";
import type { QrRequestBody } from "../../providers/wallet/wallet-protocol";
import { getPaymentOrThrow } from "../core/get-payment-or-throw";
import { failedByExpiry, intentExpired, isPastGrace } from "../core/payment-expiry";
import { findPayment, isPaymentId, lockPaymentWithService, type PaymentRow } from "../../db/payment-record";
import { findQrCharge, settleQrCharge, withdrawExpiredQrCharge } from "../core/wallet-qr";
import type { QrAnswerAccess, QrOutcome } from "./answer-qr-payment.schema";

export interface QrAnswer {
  payment: PaymentRow;
  /** The wallet's record of the request, with the answer. */
  qr: QrRequest;
}

/**
 * The customer's answer to a QR payment in the sandbox wallet app, given to the wallet
 * service (its sandbox extension), which charges the wallet (DIRECT debit, RESERVATION hold,
 * or rejects it when the balance no longer covers it) or records the refusal, then posts its
 * signed callback. The payment is checked under its lock first; the wallet is called outside
 * any transaction; the charge is then settled from the wallet's answer, once, whether or not
 * the callback arrived first. Past the intent's grace the request is withdrawn at the wallet,
 * the payment fails as expired and the call answers intent_expired. Anything but a QR payment
 * awaiting its answer is invalid_state, so a second answer never runs.
 */
export async function answerQrPayment(
  db: Db,
  options: { paymentId: string; outcome: QrOutcome; access: QrAnswerAccess },
): Promise<QrAnswer> {
  const { paymentId, outcome, access } = options;
  if ("walletToken" in access) await assertWalletAppToken(db, paymentId, access.walletToken);

  const checked = await db.transaction(async (tx) => {
    const { payment, now } = await lockForAnswer(tx, paymentId, access);
    if (payment.transactionType !== "QR_CODE" || payment.paymentMethodCode !== "WALLET_V2") {
      throw new ApiError("invalid_state", "This payment is not a QR wallet payment awaiting confirmation.");
    }
    if (failedByExpiry(payment)) throw intentExpired();
    if (payment.state !== "PROCESSING") {
      throw new ApiError("invalid_state", `The payment is not awaiting a QR confirmation; it is ${payment.state}.`);
    }
    return { payment, now, pastGrace: isPastGrace(payment, now) };
  });
  if (checked.pastGrace) {
    await withdrawExpiredQrCharge(db, checked.payment);
    throw intentExpired();
  }

  const qrRequestId = (await findQrCharge(db, paymentId))?.request.qrRequestId;
  if (typeof qrRequestId !== "string") throw new ApiError("invalid_state", "This payment has no QR request at the wallet.");
  const qr = await answerAtWallet(checked.now, qrRequestId, outcome);
  // The wallet's callback has usually settled the charge by now; if it was lost, its answer here does.
  await settleQrCharge(db, paymentId, qr);
  const payment = (await findPayment(db, paymentId))!;
  return { payment, qr: { orderId: qr.orderId, transactionId: qr.qrRequestId, status: qr.status, approvalCode: qr.approvalCode } };
}

async function answerAtWallet(now: Date, qrRequestId: string, outcome: QrOutcome): Promise<QrRequestBody> {
  try {
    return await (await connectedWallet({ now })).answerQrInSandbox(qrRequestId, outcome);
  } catch (error) {
    // Another answer reached the wallet first (two taps at once): this one did nothing.
    if (error instanceof WalletProtocolError && error.errorName === "qr_request_answered") {
      throw new ApiError("invalid_state", "The QR request was answered already.");
    }
    if (error instanceof WalletUnavailableError) throw providerUnavailable();
    throw error;
  }
}

/** The payment locked for the answer, and now on its service's clock (the sandbox clock may run ahead). */
async function lockForAnswer(tx: Db, paymentId: string, access: QrAnswerAccess): Promise<{ payment: PaymentRow; now: Date }> {
  if ("principal" in access) {
    const payment = await getPaymentOrThrow(tx, { principal: access.principal, paymentId, lock: true });
    return { payment, now: serviceClock(access.principal.service).now() };
  }
  const row = await lockPaymentWithService(tx, paymentId);
  if (!row) throw invalidCredentials();
  return { payment: row.payment, now: serviceClock(row.service).now() };
}

/** The wallet app acts on a payment only with the token of that payment's QR link. */
async function assertWalletAppToken(db: Db, paymentId: string, token: string): Promise<void> {
  if (!isPaymentId(paymentId) || typeof token !== "string") throw invalidCredentials();
  if (!isValidWalletAppToken(await getGatewayKey(db), paymentId, token)) throw invalidCredentials();
}
