import { ApiError } from "../http/api-error";
import { catalogRows } from "../payment-methods/list-available-payment-methods";
import { walletProvider } from "../providers/wallet/wallet-provider";
import { applyTransition } from "./apply-transition";
import { chargeWallet, failForFunds } from "./charge-wallet";
import { hostedPayUrl } from "./pay-url";
import { STATUS_TEXT } from "./payment-messages";
import type { PaymentRow } from "./payment-record";
import { checkStatusCode } from "./payment-state";
import type { ProceedHandler, ProceedOutcome } from "./proceed-payment.schema";
import { proceedWithQr } from "./proceed-with-qr";

/**
 * WALLET_V2. The intent's own customer (user_auth) needs no OTP: charged at once. A merchant
 * server or browser gets REQUIRES_ACTION (12) and the hosted OTP page, after the balance is
 * seen to cover the amount; a balance that does not is rejected now (200 with 3).
 */
export const proceedWithWallet: ProceedHandler = async (tx, context) => {
  const { payment, principal, now, changes } = context;
  // A country may offer cards only (contract 1: "a wallet method on a card-only country").
  const methods = await catalogRows(tx, { serviceId: principal.service.id, country: payment.country });
  if (!methods.some((method) => method.code === "WALLET_V2")) {
    throw new ApiError("invalid_state", `WALLET_V2 is not enabled for ${payment.country}.`);
  }
  // A QR intent is answered in the wallet app, whoever proceeds it.
  if (payment.transactionType === "QR_CODE") return proceedWithQr(tx, context);
  // getPaymentOrThrow admits a user_auth caller only to the customer's own payments.
  if (principal.mode === "user") return settled(await chargeWallet(tx, { payment, now, changes }));

  const wallet = walletProvider();
  const account = { serviceId: payment.serviceId, customerId: payment.customerId, currency: payment.currency };
  const { availableMinor } = await wallet.balance(tx, account);
  if (availableMinor < payment.amountMinor) return settled(await failForFunds(tx, { payment, now, changes }));

  await wallet.startOtp(tx, { paymentId: payment.id, account, now });
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

function settled(payment: PaymentRow): ProceedOutcome {
  return { payment, require3DS: false, statusCode: checkStatusCode(payment.state), status: payment.status, payUrl: "" };
}
