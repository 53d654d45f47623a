import { walletProvider } from "../providers/wallet/wallet-provider";
import { applyTransition } from "./apply-transition";
import { failForFunds } from "./charge-wallet";
import { STATUS_TEXT } from "./payment-messages";
import { checkStatusCode } from "./payment-state";
import type { ProceedHandler } from "./proceed-payment.schema";
import { qrImageUrl, qrPageUrl } from "./qr-links";

/**
 * WALLET_V2 on a QR_CODE intent, in any auth mode: the wallet opens a QR request and the
 * payment waits in PROCESSING (check: 1) until the customer answers it in the wallet app.
 * The result has no statusCode (interface, "Proceed result"). A balance that cannot cover the
 * amount is rejected now, as for every wallet proceed (contract 9): 200 with statusCode 3.
 */
export const proceedWithQr: ProceedHandler = async (tx, context) => {
  const { payment, now, changes, gatewayKey } = context;
  const wallet = walletProvider();
  const account = { serviceId: payment.serviceId, customerId: payment.customerId, currency: payment.currency };
  const { availableMinor } = await wallet.balance(tx, account);
  if (availableMinor < payment.amountMinor) {
    const failed = await failForFunds(tx, { payment, now, changes });
    return { payment: failed, require3DS: false, statusCode: checkStatusCode(failed.state), status: failed.status, payUrl: "" };
  }

  const qr = await wallet.startQr(tx, { paymentId: payment.id, now });
  const updated = await applyTransition(tx, {
    payment,
    event: "start_processing",
    now,
    changes: { ...changes, providerOrderId: qr.orderId, providerTransactionId: qr.transactionId, status: STATUS_TEXT.qrAwaiting },
  });
  return {
    payment: updated,
    require3DS: false,
    status: updated.status,
    payUrl: "",
    qrImageUrl: qrImageUrl({ gatewayKey, paymentId: payment.id }),
    qrPageUrl: qrPageUrl({ gatewayKey, paymentId: payment.id, locale: context.locale }),
  };
};
