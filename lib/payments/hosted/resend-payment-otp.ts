import type { Db } from "../../db/client";
import { ApiError } from "../../http/api-error";
import { walletProvider } from "../../providers/wallet/wallet-provider";
import { expirePayment } from "../expire-payment";
import { intentExpired, isPastGrace } from "../payment-expiry";
import { assertHostedToken } from "./hosted-access";
import { lockPaymentAwaitingOtp } from "./lock-payment-awaiting-otp";

/**
 * Sends a new OTP (sandbox: the same code, a fresh 5-minute lifetime) once 30 s have passed
 * since the last one; wrong attempts keep counting. Inside the cooldown: invalid_state with
 * the time a resend becomes possible. Past the intent's grace the payment fails and the
 * call answers intent_expired.
 */
export async function resendPaymentOtp(
  db: Db,
  options: { paymentId: string; token: string },
): Promise<{ resendAvailableAt: string }> {
  await assertHostedToken(db, options.paymentId, options.token);
  const outcome = await db.transaction(async (tx) => {
    const { payment, now } = await lockPaymentAwaitingOtp(tx, options.paymentId);
    if (isPastGrace(payment, now)) {
      // Committed before the 410 is thrown: the expiry stands even though the call fails.
      await expirePayment(tx, { payment, now });
      return { expired: true as const };
    }
    const resend = await walletProvider().resendOtp(tx, { paymentId: payment.id, now });
    if (!resend.ok) {
      throw new ApiError(
        "invalid_state",
        `A new code can be sent at ${resend.resendAvailableAt.toISOString()}.`,
      );
    }
    return { expired: false as const, resendAvailableAt: resend.challenge.resendAvailableAt.toISOString() };
  });
  if (outcome.expired) throw intentExpired();
  return { resendAvailableAt: outcome.resendAvailableAt };
}
