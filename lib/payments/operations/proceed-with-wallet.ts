import { ApiError } from "../../errors/api-error";
import { applyTransition } from "../core/apply-transition";
import { failForFunds } from "../core/charge-wallet";
import { hostedPayUrl } from "../core/hosted-page-token";
import { STATUS_TEXT } from "../core/payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import { checkStatusCode } from "../core/payment-state";
import type { ProceedHandler, ProceedOutcome } from "./proceed-payment.schema";
import { proceedWithQr } from "./proceed-with-qr";
import { beginWalletCharge } from "../core/wallet-charge";

/**
 * WALLET_V2, inside the proceed's transaction. The intent's own customer (user_auth) needs no
 * OTP: the charge is recorded here and sent to the wallet once the transaction commits. A
 * merchant server or browser gets REQUIRES_ACTION (12) and the hosted OTP page when the
 * balance covers the amount (the wallet was asked and sent the code before the transaction,
 * prepareWalletProceed); a balance that does not is rejected now (200 with 3).
 */
export const proceedWithWallet: ProceedHandler = async (tx, context) => {
  const { payment, principal, now, changes } = context;
  // A QR intent is answered in the wallet app, whoever proceeds it.
  if (payment.transactionType === "QR_CODE") return proceedWithQr(tx, context);
  // getPaymentOrThrow admits a user_auth caller only to the customer's own payments.
  if (principal.mode === "user") return { ...settled(payment), pendingCharge: await beginWalletCharge(tx, { payment, changes }) };

  const prepared = context.prepared?.wallet;
  // The payment was read before the lock; another request may have moved it meanwhile (then the caller refused it already).
  if (!prepared) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  if (!prepared.fundsCover) return settled(await failForFunds(tx, { payment, now, changes }));

  const updated = await applyTransition(tx, {
    payment,
    event: "require_action",
    now,
    changes: { ...changes, status: STATUS_TEXT.otpRequired },
  });
  return {
    payment: updated,
    require3DS: true,
    statusCode: checkStatusCode(updated.state),
    status: updated.status,
    payUrl: hostedPayUrl({ gatewayKey: context.gatewayKey, page: "otp", paymentId: payment.id, locale: context.locale }),
  };
};

export function settled(payment: PaymentRow): ProceedOutcome {
  return { payment, require3DS: false, statusCode: checkStatusCode(payment.state), status: payment.status, payUrl: "" };
}
