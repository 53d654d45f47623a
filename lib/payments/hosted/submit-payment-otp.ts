import type { Db } from "../../db/client";
import { ApiError } from "../../http/api-error";
import { walletProvider } from "../../providers/wallet/wallet-provider";
import { applyTransition } from "../apply-transition";
import { chargeWallet } from "../charge-wallet";
import { expirePayment } from "../expire-payment";
import { FAILURE_REASON, STATUS_TEXT } from "../payment-messages";
import { isPastGrace } from "../payment-expiry";
import { checkStatusCode, type PaymentState } from "../payment-state";
import { assertHostedToken } from "./hosted-access";
import { lockPaymentAwaitingOtp } from "./lock-payment-awaiting-otp";

export interface OtpSubmission {
  statusCode: number;
  state: PaymentState;
  attemptsLeft: number;
}

// Longer input cannot be the code; it is refused without hashing whatever was pasted.
const MAX_CODE_LENGTH = 32;

/**
 * The buyer's OTP on the hosted page. Right code: the wallet is charged (DIRECT 2,
 * RESERVATION 13, or 3 if the balance no longer covers it). Wrong code: one attempt fewer,
 * and the fifth wrong code fails the payment (3). Past the intent's grace: FAILED, expired.
 * Throws invalid_credentials for a bad token, invalid_state unless the payment awaits its
 * OTP or when the code itself has outlived its 5 minutes (a resend gives a new one).
 */
export async function submitPaymentOtp(
  db: Db,
  options: { paymentId: string; token: string; code: string },
): Promise<OtpSubmission> {
  await assertHostedToken(db, options.paymentId, options.token);
  const code = typeof options.code === "string" ? options.code.trim() : "";

  return db.transaction(async (tx) => {
    const { payment, now } = await lockPaymentAwaitingOtp(tx, options.paymentId);
    const wallet = walletProvider();
    if (isPastGrace(payment, now)) {
      const challenge = await wallet.otpChallenge(tx, { paymentId: payment.id });
      const expired = await expirePayment(tx, { payment, now });
      return result(expired.state, challenge?.attemptsLeft ?? 0);
    }

    const candidate = code.length <= MAX_CODE_LENGTH ? code : "";
    const verification = await wallet.verifyOtp(tx, { paymentId: payment.id, code: candidate, now });
    switch (verification.outcome) {
      case "verified": {
        const charged = await chargeWallet(tx, { payment, now });
        return result(charged.state, verification.attemptsLeft);
      }
      case "wrong_code": {
        if (verification.attemptsLeft > 0) return result(payment.state, verification.attemptsLeft);
        const failed = await applyTransition(tx, {
          payment,
          event: "fail",
          now,
          changes: { failureReason: FAILURE_REASON.tooManyCodes, status: STATUS_TEXT.tooManyCodes },
        });
        return result(failed.state, 0);
      }
      case "code_expired":
        throw new ApiError("invalid_state", "The verification code has expired. Request a new code.");
      case "no_challenge":
        throw new ApiError("invalid_state", "No verification code was sent for this payment.");
    }
  });
}

function result(state: PaymentState, attemptsLeft: number): OtpSubmission {
  return { statusCode: checkStatusCode(state), state, attemptsLeft };
}
