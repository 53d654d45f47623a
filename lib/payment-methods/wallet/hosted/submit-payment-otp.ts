import type { Db } from "../../../db/client";
import { ApiError, invalidCredentials } from "../../../errors/api-error";
import { providerUnavailable } from "../../../provider-operations";
import { WalletProtocolError, WalletUnavailableError } from "../../../providers/wallet/http-wallet-client";
import { connectedWallet } from "../../../wallet-connection/wallet-connection";
import { applyTransition } from "../../../payments/core/apply-transition";
import { BUYER_CAUSE } from "../../../payments/core/state-change-cause";
import { expirePayment } from "../../../payments/core/expire-payment";
import { walletFunds } from "../wallet-funds";
import { FAILURE_REASON, STATUS_TEXT } from "../../../payments/core/payment-messages";
import { isPastGrace } from "../../../payments/core/payment-expiry";
import { checkStatusCode, type PaymentState } from "../../../payments/core/payment-state";
import { beginWalletCharge, completeWalletCharge } from "../wallet-charge";
import { hasOpenWalletCharge } from "../wallet-charge-record";
import { hasHostedToken } from "../../../payments/core/hosted-access";
import { lockPaymentAwaitingOtp, type AwaitingOtp } from "./lock-payment-awaiting-otp";

export interface OtpSubmission {
  statusCode: number;
  state: PaymentState;
  attemptsLeft: number;
}

/** Every expected answer to a submitted code; the hosted form and `submitPaymentOtp` map it. */
export type OtpAttempt =
  | { outcome: "answered"; submission: OtpSubmission }
  /** The code sent last outlived its 5 minutes: a resend gives a new one. */
  | { outcome: "code_expired" }
  /** Settled meanwhile, another method, or no code sent: the return page tells how it ended. */
  | { outcome: "not_awaiting_code"; message: string }
  /** A wrong page token or an unknown payment. */
  | { outcome: "invalid_link" };

// Longer input cannot be the code; it is refused without hashing whatever was pasted.
const MAX_CODE_LENGTH = 32;

type Verification =
  | { outcome: "verified" | "wrong_code"; attemptsLeft: number }
  | { outcome: "exhausted" | "code_expired" | "no_challenge" };

/**
 * The buyer's OTP on the hosted page. The wallet checks the code (it sent it), outside any
 * transaction. Right code: the charge is recorded under the payment's lock and sent to the
 * wallet after (DIRECT 2, RESERVATION 13, or 3 if the balance no longer covers it). Wrong
 * code: one attempt fewer, and the fifth wrong code fails the payment (3), unless a right code
 * before it left a charge the wallet has not answered (that charge decides). Past the intent's
 * grace: FAILED, expired. Throws provider_unavailable when the wallet does not answer
 * (submitting again is safe).
 */
export async function attemptPaymentOtp(
  db: Db,
  options: { paymentId: string; token: string; code: string },
): Promise<OtpAttempt> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { outcome: "invalid_link" };
  const code = typeof options.code === "string" ? options.code.trim() : "";

  const first = await db.transaction(async (tx) => {
    const locked = await lockPaymentAwaitingOtp(tx, options.paymentId);
    if (!locked.awaiting || !isPastGrace(locked.payment, locked.now)) return { locked, expired: null };
    return {
      locked,
      expired: await expirePayment(tx, { payment: locked.payment, now: locked.now, funds: walletFunds }),
    };
  });
  if (!first.locked.awaiting) return notAwaiting(first.locked);
  const wallet = await connectedWallet({ now: first.locked.now });
  if (first.expired) {
    const challenge = await wallet.otpChallenge(options.paymentId).catch(() => null);
    return answered(first.expired.state, challenge?.attemptsLeft ?? 0);
  }

  const verification = await verify(() =>
    wallet.verifyOtp(options.paymentId, code.length <= MAX_CODE_LENGTH ? code : ""),
  );
  switch (verification.outcome) {
    case "wrong_code":
      return answered("REQUIRES_ACTION", verification.attemptsLeft);
    case "code_expired":
      return { outcome: "code_expired" };
    case "no_challenge":
      return { outcome: "not_awaiting_code", message: "No verification code was sent for this payment." };
    case "exhausted":
      return db.transaction(async (tx) => {
        const locked = await lockPaymentAwaitingOtp(tx, options.paymentId);
        if (!locked.awaiting) return notAwaiting(locked);
        // A right code came first and its charge is still out: the wallet may have taken the
        // money, so the payment is the charge's to settle (reconciliation), not this code's.
        if (await hasOpenWalletCharge(tx, locked.payment.id)) return answered(locked.payment.state, 0);
        const failed = await applyTransition(tx, {
          payment: locked.payment,
          event: "fail",
          cause: BUYER_CAUSE,
          now: locked.now,
          changes: { failureReason: FAILURE_REASON.tooManyCodes, status: STATUS_TEXT.tooManyCodes },
        });
        return answered(failed.state, 0);
      });
    case "verified": {
      const charge = await db.transaction(async (tx) => {
        const locked = await lockPaymentAwaitingOtp(tx, options.paymentId);
        return locked.awaiting ? beginWalletCharge(tx, { payment: locked.payment, cause: BUYER_CAUSE }) : locked;
      });
      if ("awaiting" in charge) return notAwaiting(charge);
      const charged = await completeWalletCharge(db, charge);
      return answered(charged.state, verification.attemptsLeft);
    }
  }
}

/**
 * `attemptPaymentOtp` with every answer but a checked code as an error: invalid_credentials
 * for a bad token, invalid_state unless the payment awaits its OTP or when the code itself
 * has outlived its 5 minutes.
 */
export async function submitPaymentOtp(
  db: Db,
  options: { paymentId: string; token: string; code: string },
): Promise<OtpSubmission> {
  const attempt = await attemptPaymentOtp(db, options);
  switch (attempt.outcome) {
    case "answered":
      return attempt.submission;
    case "invalid_link":
      throw invalidCredentials();
    case "code_expired":
      throw new ApiError("invalid_state", "The verification code has expired. Request a new code.");
    case "not_awaiting_code":
      throw new ApiError("invalid_state", attempt.message);
  }
}

/** The wallet's answer to a code, its named refusals mapped to the page's outcomes. */
async function verify(call: () => Promise<{ attemptsLeft: number }>): Promise<Verification> {
  try {
    return { outcome: "verified", attemptsLeft: (await call()).attemptsLeft };
  } catch (error) {
    if (error instanceof WalletUnavailableError) throw providerUnavailable();
    if (!(error instanceof WalletProtocolError)) throw error;
    switch (error.errorName) {
      case "code_wrong":
        return { outcome: "wrong_code", attemptsLeft: error.body.attemptsLeft ?? 0 };
      case "code_exhausted":
        return { outcome: "exhausted" };
      case "code_expired":
        return { outcome: "code_expired" };
      case "unknown_challenge":
        return { outcome: "no_challenge" };
      default:
        throw new ApiError("invalid_state", `The wallet refused the code (${error.errorName}).`);
    }
  }
}

function notAwaiting(locked: Exclude<AwaitingOtp, { awaiting: true }>): OtpAttempt {
  return locked.reason === "unknown_payment"
    ? { outcome: "invalid_link" }
    : { outcome: "not_awaiting_code", message: locked.message };
}

function answered(state: PaymentState, attemptsLeft: number): OtpAttempt {
  return { outcome: "answered", submission: { statusCode: checkStatusCode(state), state, attemptsLeft } };
}
