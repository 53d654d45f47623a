import type { Db } from "../../../db/client";
import { ApiError, invalidCredentials } from "../../../errors/api-error";
import { providerUnavailable } from "../../../provider-operations";
import { WalletProtocolError, WalletUnavailableError } from "../../../providers/wallet/http-wallet-client";
import { connectedWallet } from "../../../wallet-connection/wallet-connection";
import { expirePayment } from "../../../payments/core/expire-payment";
import { walletFunds } from "../wallet-funds";
import { intentExpired, isPastGrace } from "../../../payments/core/payment-expiry";
import { hasHostedToken } from "../../../payments/core/hosted-access";
import { lockPaymentAwaitingOtp } from "./lock-payment-awaiting-otp";

/** Every expected answer to "send me a new code"; the hosted form and `resendPaymentOtp` map it. */
export type OtpResend =
  | { outcome: "sent"; resendAvailableAt: string }
  /** Inside the 30 s cooldown. */
  | { outcome: "too_soon"; resendAvailableAt: string }
  /** Past the intent's grace: the payment failed as expired (committed). */
  | { outcome: "intent_expired" }
  | { outcome: "not_awaiting_code"; message: string }
  | { outcome: "invalid_link" };

/**
 * Asks the wallet to send a new OTP (sandbox: the same code, a fresh 5-minute lifetime) once
 * 30 s have passed since the last one; wrong attempts keep counting. Past the intent's grace
 * the payment fails. The wallet is called after the payment's transaction, never inside it;
 * provider_unavailable when it does not answer.
 */
export async function requestOtpResend(db: Db, options: { paymentId: string; token: string }): Promise<OtpResend> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { outcome: "invalid_link" };
  const outcome = await db.transaction(async (tx) => {
    const locked = await lockPaymentAwaitingOtp(tx, options.paymentId);
    if (!locked.awaiting || !isPastGrace(locked.payment, locked.now)) return { locked, expiredState: null };
    // Returned, not thrown, so the expiry commits even though the caller answers 410.
    return {
      locked,
      expiredState: (await expirePayment(tx, { payment: locked.payment, now: locked.now, funds: walletFunds })).state,
    };
  });
  const { locked } = outcome;
  if (!locked.awaiting)
    return locked.reason === "unknown_payment"
      ? { outcome: "invalid_link" }
      : { outcome: "not_awaiting_code", message: locked.message };
  // An open charge keeps the payment from expiring: then the resend goes on as asked.
  if (outcome.expiredState === "FAILED") return { outcome: "intent_expired" };
  const wallet = await connectedWallet({ now: locked.now });
  try {
    const challenge = await wallet.resendOtp(options.paymentId);
    return { outcome: "sent", resendAvailableAt: challenge.resendAvailableAt };
  } catch (error) {
    if (error instanceof WalletUnavailableError) throw providerUnavailable();
    if (!(error instanceof WalletProtocolError)) throw error;
    switch (error.errorName) {
      case "resend_too_soon":
        return { outcome: "too_soon", resendAvailableAt: error.body.resendAvailableAt ?? locked.now.toISOString() };
      case "code_exhausted":
        return { outcome: "not_awaiting_code", message: "No attempt remains for this payment." };
      default:
        return { outcome: "not_awaiting_code", message: "No verification code was sent for this payment." };
    }
  }
}

/**
 * `requestOtpResend` with every answer but a sent code as an error: inside the cooldown
 * invalid_state with the time a resend becomes possible; past the grace intent_expired.
 */
export async function resendPaymentOtp(
  db: Db,
  options: { paymentId: string; token: string },
): Promise<{ resendAvailableAt: string }> {
  const resend = await requestOtpResend(db, options);
  switch (resend.outcome) {
    case "sent":
      return { resendAvailableAt: resend.resendAvailableAt };
    case "too_soon":
      throw new ApiError("invalid_state", `A new code can be sent at ${resend.resendAvailableAt}.`);
    case "intent_expired":
      throw intentExpired();
    case "not_awaiting_code":
      throw new ApiError("invalid_state", resend.message);
    case "invalid_link":
      throw invalidCredentials();
  }
}
