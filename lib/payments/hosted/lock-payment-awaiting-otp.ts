import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { ApiError, invalidCredentials } from "../../http/api-error";
import { lockPaymentWithService } from "../payment-record";

/**
 * Locks, for the rest of the transaction, a wallet payment that awaits its OTP, and reads its
 * service's clock. An unknown payment answers like a wrong token (invalid_credentials); any
 * other state or method is invalid_state.
 */
export async function lockPaymentAwaitingOtp(tx: Db, paymentId: string) {
  const row = await lockPaymentWithService(tx, paymentId);
  if (!row) throw invalidCredentials();
  const { payment } = row;
  const now = serviceClock(row.service).now();
  if (payment.state !== "REQUIRES_ACTION" || payment.paymentMethodCode !== "WALLET_V2") {
    throw new ApiError("invalid_state", `The payment is not awaiting a verification code; it is ${payment.state}.`);
  }
  return { payment, now };
}
