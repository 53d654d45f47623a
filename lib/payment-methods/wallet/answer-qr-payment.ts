import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { ApiError, invalidCredentials } from "../../errors/api-error";
import { isWalletQrPayment } from "./wallet-qr-payment";
import { providerUnavailable } from "../../provider-operations";
import { WalletProtocolError, WalletUnavailableError } from "../../providers/wallet/http-wallet-client";
import type { QrRequest } from "../../providers/wallet/port";
import { isValidWalletAppToken } from "../../wallet-connection/wallet-app-token";
import { connectedWallet } from "../../wallet-connection/wallet-connection";
import type { QrRequestBody } from "../../providers/wallet/wallet-protocol";
import { getPaymentOrThrow } from "../../payments/core/get-payment-or-throw";
import { failedByExpiry, intentExpired, isPastGrace } from "../../payments/core/payment-expiry";
import { findPayment, isPaymentId, lockPaymentWithService, type PaymentRow } from "../../db/payment-record";
import { findQrCharge, settleQrCharge, withdrawExpiredQrCharge } from "./wallet-qr";
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
  const attempt = await attemptQrAnswer(db, options);
  switch (attempt.outcome) {
    case "answered":
      return attempt.answer;
    case "not_allowed":
      throw invalidCredentials();
    case "not_awaiting":
      throw new ApiError("invalid_state", attempt.message);
    case "expired":
      throw intentExpired();
  }
}

/** What an answer found; the sandbox wallet app's form shows the page again for each of them. */
export type QrAnswerAttempt =
  | { outcome: "answered"; answer: QrAnswer }
  /** A wrong wallet-app token, or no such payment. */
  | { outcome: "not_allowed" }
  /** Not a QR payment awaiting its answer (answered meanwhile, another state); the message says which. */
  | { outcome: "not_awaiting"; message: string }
  /** Past the intent's grace: the request was withdrawn and the payment failed as expired. */
  | { outcome: "expired" };

/**
 * `answerQrPayment` as a result; refusals of a merchant principal (getPaymentOrThrow) and a wallet that is
 * away still throw.
 */
export async function attemptQrAnswer(
  db: Db,
  options: { paymentId: string; outcome: QrOutcome; access: QrAnswerAccess },
): Promise<QrAnswerAttempt> {
  const { paymentId, outcome, access } = options;
  if ("walletToken" in access && !(await hasWalletAppToken(db, paymentId, access.walletToken)))
    return { outcome: "not_allowed" };

  const checked = await db.transaction(async (tx) => {
    const locked = await lockForAnswer(tx, paymentId, access);
    if (!locked) return { outcome: "not_allowed" } as const;
    const { payment, now } = locked;
    if (!isWalletQrPayment(payment)) {
      return {
        outcome: "not_awaiting",
        message: "This payment is not a QR wallet payment awaiting confirmation.",
      } as const;
    }
    if (failedByExpiry(payment)) return { outcome: "expired" } as const;
    if (payment.state !== "PROCESSING") {
      return {
        outcome: "not_awaiting",
        message: `The payment is not awaiting a QR confirmation; it is ${payment.state}.`,
      } as const;
    }
    return { outcome: "checked", payment, now, pastGrace: isPastGrace(payment, now) } as const;
  });
  if (checked.outcome !== "checked") return checked;
  if (checked.pastGrace) {
    await withdrawExpiredQrCharge(db, checked.payment);
    return { outcome: "expired" };
  }

  const qrRequestId = (await findQrCharge(db, paymentId))?.request.qrRequestId;
  if (typeof qrRequestId !== "string")
    return { outcome: "not_awaiting", message: "This payment has no QR request at the wallet." };
  const qr = await answerAtWallet(checked.now, qrRequestId, outcome);
  if (!qr) return { outcome: "not_awaiting", message: "The QR request was answered already." };
  // The wallet's callback has usually settled the charge by now; if it was lost, its answer here does.
  await settleQrCharge(db, paymentId, qr);
  const payment = (await findPayment(db, paymentId))!;
  return {
    outcome: "answered",
    answer: {
      payment,
      qr: { orderId: qr.orderId, transactionId: qr.qrRequestId, status: qr.status, approvalCode: qr.approvalCode },
    },
  };
}

/** The wallet's record with the answer; null when another answer reached the wallet first. */
async function answerAtWallet(now: Date, qrRequestId: string, outcome: QrOutcome): Promise<QrRequestBody | null> {
  try {
    return await (await connectedWallet({ now })).answerQrInSandbox(qrRequestId, outcome);
  } catch (error) {
    // Another answer reached the wallet first (two taps at once): this one did nothing.
    if (error instanceof WalletProtocolError && error.errorName === "qr_request_answered") return null;
    if (error instanceof WalletUnavailableError) throw providerUnavailable();
    throw error;
  }
}

/** The payment locked for the answer, and now on its service's clock (the sandbox clock may run ahead). */
async function lockForAnswer(
  tx: Db,
  paymentId: string,
  access: QrAnswerAccess,
): Promise<{ payment: PaymentRow; now: Date } | null> {
  if ("principal" in access) {
    const payment = await getPaymentOrThrow(tx, { principal: access.principal, paymentId, lock: true });
    return { payment, now: serviceClock(access.principal.service).now() };
  }
  const row = await lockPaymentWithService(tx, paymentId);
  if (!row) return null;
  return { payment: row.payment, now: serviceClock(row.service).now() };
}

/** The wallet app acts on a payment only with the token of that payment's QR link. */
async function hasWalletAppToken(db: Db, paymentId: string, token: string): Promise<boolean> {
  if (!isPaymentId(paymentId) || typeof token !== "string") return false;
  return isValidWalletAppToken(await getGatewayKey(db), paymentId, token);
}
