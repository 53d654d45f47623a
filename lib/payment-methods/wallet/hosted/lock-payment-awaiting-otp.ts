import { serviceClock } from "../../../clock";
import type { Db } from "../../../db/client";
import { lockPaymentWithService, type PaymentRow } from "../../../db/payment-record";

/** A wallet payment locked for the rest of the transaction while it awaits its OTP, or why not. */
export type AwaitingOtp =
  | { awaiting: true; payment: PaymentRow; now: Date }
  | { awaiting: false; reason: "unknown_payment" }
  | { awaiting: false; reason: "not_awaiting_code"; message: string };

/**
 * Locks, for the rest of the transaction, a wallet payment that awaits its OTP, and reads its
 * service's clock. An unknown payment, or one in another state or of another method, is an
 * expected answer the caller maps (the API as invalid_credentials or invalid_state).
 */
export async function lockPaymentAwaitingOtp(tx: Db, paymentId: string): Promise<AwaitingOtp> {
  const row = await lockPaymentWithService(tx, paymentId);
  if (!row) return { awaiting: false, reason: "unknown_payment" };
  const { payment } = row;
  // WALLET_V2 is the one method whose hosted step is the OTP page (walletMethod.hostedStep).
  if (payment.state !== "REQUIRES_ACTION" || payment.paymentMethodCode !== "WALLET_V2") {
    return {
      awaiting: false,
      reason: "not_awaiting_code",
      message: `The payment is not awaiting a verification code; it is ${payment.state}.`,
    };
  }
  return { awaiting: true, payment, now: serviceClock(row.service).now() };
}
