import { ApiError } from "../../errors/api-error";
import { applyTransition } from "../../payments/core/apply-transition";
import { failForInsufficientFunds } from "./fail-for-insufficient-funds";
import { hostedPayUrl } from "../../payments/core/hosted-page-token";
import { STATUS_TEXT } from "../../payments/core/payment-messages";
import type { PaymentRow } from "../../db/payment-record";
import { checkStatusCode } from "../../payments/core/payment-state";
import type { PreparedWalletProceed } from "./prepare-wallet-proceed";
import { outcomeWithNothingForBuyer } from "../contract/proceed-contract";
import type { ProceedHandler, ProceedOutcome } from "../contract/proceed-contract";
import { proceedWithQr } from "./proceed-with-qr";
import type { Db } from "../../db/client";
import { operationInProgress, type ProviderOperationRow } from "../../provider-operations";
import { beginWalletCharge, findWalletCharge } from "./wallet-charge";

/**
 * WALLET_V2, inside the proceed's transaction. The intent's own customer (user_auth) needs no
 * OTP: the charge is recorded here and sent to the wallet once the transaction commits (ownerCharge). A
 * merchant server or browser gets REQUIRES_ACTION (12) and the hosted OTP page when the
 * balance covers the amount (the wallet was asked and sent the code before the transaction,
 * prepareWalletProceed); a balance that does not is rejected now (200 with 3).
 */
export const proceedWithWallet: ProceedHandler<PreparedWalletProceed> = async (tx, context) => {
  const { payment, principal, now, changes, cause } = context;
  // A QR intent is answered in the wallet app, whoever proceeds it.
  if (payment.transactionType === "QR_CODE") return proceedWithQr(tx, context);
  // getPaymentOrThrow admits a user_auth caller only to the customer's own payments.
  if (principal.mode === "user") return ownerCharge(tx, context);

  const prepared = context.prepared;
  // The payment was read before the lock; another request may have moved it meanwhile (then the caller
  // refused it already).
  if (!prepared) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  if (!prepared.fundsCover)
    return outcomeWithNothingForBuyer(await failForInsufficientFunds(tx, { payment, now, cause, changes }));

  const updated = await applyTransition(tx, {
    payment,
    event: "require_action",
    cause,
    now,
    changes: { ...changes, status: STATUS_TEXT.otpRequired },
  });
  return {
    payment: updated,
    require3DS: true,
    statusCode: checkStatusCode(updated.state),
    status: updated.status,
    payUrl: hostedPayUrl({
      gatewayKey: context.gatewayKey,
      page: "otp",
      paymentId: payment.id,
      locale: context.locale,
    }),
  };
};

/**
 * The owner's charge: the payment moves to PROCESSING (check: 1) with the charge recorded, so
 * while the wallet has not answered nothing else can take the payment: no other proceed (a
 * card, or a balance the charge already reduced, would fail or charge it twice) and no expiry
 * (expirePayment waits for an open wallet charge). The request's Idempotency-Key goes with the
 * charge, so a retry with it finds the charge again (ownerChargeRetried).
 */
const ownerCharge: ProceedHandler<PreparedWalletProceed> = async (
  tx,
  { payment, now, changes, operationKey, cause },
) => {
  const processing = await applyTransition(tx, {
    payment,
    event: "start_processing",
    cause,
    now,
    changes: { ...changes, status: STATUS_TEXT.walletCharging },
  });
  return {
    ...outcomeWithNothingForBuyer(processing),
    pendingCharge: await beginWalletCharge(tx, { payment: processing, cause, changes, requestKey: operationKey }),
  };
};

/**
 * The owner's own wallet charge that a proceed of a payment past CREATED takes up again: while
 * the charge is out (PROCESSING: asking the wallet again with the charge's id is safe, it
 * applies it once), and once settled only for a retry with the Idempotency-Key of the proceed
 * that made it (contract 12: such a retry answers the final outcome). Null: not such a retry,
 * the proceed is refused as for any payment past CREATED.
 */
export async function ownerChargeRetried(
  tx: Db,
  options: { principal: { mode: string }; payment: PaymentRow; operationKey?: string },
): Promise<ProviderOperationRow | null> {
  const { principal, payment } = options;
  if (principal.mode !== "user" || payment.state === "CREATED") return null;
  if (payment.paymentMethodCode !== "WALLET_V2" || payment.transactionType === "QR_CODE") return null;
  const charge = await findWalletCharge(tx, payment.id);
  if (!charge) return null;
  if (payment.state === "PROCESSING") {
    if (charge.status === "pending") throw operationInProgress();
    return charge;
  }
  return options.operationKey !== undefined && charge.request.requestKey === options.operationKey ? charge : null;
}
