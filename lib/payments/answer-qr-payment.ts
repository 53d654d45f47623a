import { eq } from "drizzle-orm";
import { serviceClock } from "../clock";
import { getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { payments } from "../db/schema";
import { ApiError, invalidCredentials } from "../http/api-error";
import type { QrRequest } from "../providers/wallet/port";
import { isValidWalletAppToken } from "../providers/wallet/sandbox-wallet-qr";
import { walletProvider } from "../providers/wallet/wallet-provider";
import type { QrAnswerAccess, QrOutcome } from "./answer-qr-payment.schema";
import { applyTransition } from "./apply-transition";
import { chargeWallet } from "./charge-wallet";
import { expirePayment } from "./expire-payment";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import { failedByExpiry, intentExpired, isPastGrace } from "./payment-expiry";
import { isPaymentId, lockPaymentWithService, type PaymentRow } from "./payment-record";

export interface QrAnswer {
  payment: PaymentRow;
  /** The wallet's record of the request, with the answer. */
  qr: QrRequest;
}

/**
 * The customer's answer to a QR payment, in one transaction that locks the payment: approve
 * charges the wallet (DIRECT 2, RESERVATION 13, or 3 when the balance no longer covers it),
 * decline fails it (3); the wallet records the answer and the state change writes its
 * notification, all committed together. Past the intent's grace the payment fails as expired
 * and the call answers intent_expired. Anything but a QR payment awaiting its answer is
 * invalid_state, so a second answer never runs.
 */
export async function answerQrPayment(
  db: Db,
  options: { paymentId: string; outcome: QrOutcome; access: QrAnswerAccess },
): Promise<QrAnswer> {
  const { paymentId, outcome, access } = options;
  if ("walletToken" in access) await assertWalletAppToken(db, paymentId, access.walletToken);

  const answered = await db.transaction(async (tx) => {
    const { payment, now } = await lockForAnswer(tx, paymentId, access);
    if (payment.transactionType !== "QR_CODE" || payment.paymentMethodCode !== "WALLET_V2") {
      throw new ApiError("invalid_state", "This payment is not a QR wallet payment awaiting confirmation.");
    }
    if (failedByExpiry(payment)) throw intentExpired();
    if (payment.state !== "PROCESSING") {
      throw new ApiError("invalid_state", `The payment is not awaiting a QR confirmation; it is ${payment.state}.`);
    }
    if (isPastGrace(payment, now)) {
      // Committed before the 410 is thrown: the expiry stands even though the call fails.
      await expirePayment(tx, { payment, now });
      return null;
    }

    const wallet = walletProvider();
    switch (outcome) {
      case "approve": {
        const charged = await chargeWallet(tx, { payment, now });
        if (charged.state === "FAILED") {
          return { payment: charged, qr: await wallet.answerQr(tx, { paymentId, status: "rejected", now }) };
        }
        const qr = await wallet.answerQr(tx, { paymentId, status: "approved", now });
        // The gateway keeps what the wallet reported, so check reads it with the payment.
        const [approved] = await tx
          .update(payments)
          .set({ approvalCode: qr.approvalCode })
          .where(eq(payments.id, paymentId))
          .returning();
        return { payment: approved!, qr };
      }
      case "decline": {
        const declined = await applyTransition(tx, {
          payment,
          event: "fail",
          now,
          changes: { failureReason: FAILURE_REASON.qrDeclined, status: STATUS_TEXT.qrDeclined },
        });
        return { payment: declined, qr: await wallet.answerQr(tx, { paymentId, status: "declined", now }) };
      }
    }
  });
  if (!answered) throw intentExpired();
  return answered;
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
