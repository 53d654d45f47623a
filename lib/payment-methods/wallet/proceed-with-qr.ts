import { ApiError } from "../../errors/api-error";
import { qrImageUrl } from "../../urls/hosted-urls";
import { applyTransition } from "../../payments/core/apply-transition";
import { failForInsufficientFunds } from "./fail-for-insufficient-funds";
import { hostedPageToken, hostedPayUrl } from "../../payments/core/hosted-page-token";
import { STATUS_TEXT } from "../../payments/core/payment-messages";
import { checkStatusCode } from "../../payments/core/payment-state";
import { beginQrCharge } from "./wallet-qr";
import type { PreparedWalletProceed } from "./prepare-wallet-proceed";
import type { ProceedHandler } from "../contract/proceed-contract";

/**
 * WALLET_V2 on a QR_CODE intent, in any auth mode: the wallet opened a QR request before the
 * transaction (prepareWalletProceed); here its charge is recorded as an open provider
 * operation and the payment waits in PROCESSING (check: 1) until the customer answers it in
 * the wallet app. The result has no statusCode (interface, "Proceed result"). A balance that
 * cannot cover the amount is rejected now, as for every wallet proceed (contract 9): 200 with
 * statusCode 3.
 */
export const proceedWithQr: ProceedHandler<PreparedWalletProceed> = async (tx, context) => {
  const { payment, now, changes, gatewayKey, cause } = context;
  const prepared = context.prepared;
  // The payment was read before the lock; another request may have moved it meanwhile (then the caller
  // refused it already).
  if (!prepared) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  if (!prepared.fundsCover || !prepared.qr) {
    const failed = await failForInsufficientFunds(tx, { payment, now, cause, changes });
    return {
      payment: failed,
      require3DS: false,
      statusCode: checkStatusCode(failed.state),
      status: failed.status,
      payUrl: "",
    };
  }

  const { qr } = prepared;
  await beginQrCharge(tx, { payment, qr, now });
  const updated = await applyTransition(tx, {
    payment,
    event: "start_processing",
    cause,
    now,
    changes: {
      ...changes,
      providerOrderId: qr.orderId,
      providerTransactionId: qr.qrRequestId,
      status: STATUS_TEXT.qrAwaiting,
    },
  });
  return {
    payment: updated,
    require3DS: false,
    status: updated.status,
    payUrl: "",
    // Both under the payment's hosted page token, so a merchant can show the code without credentials.
    qrImageUrl: qrImageUrl({ paymentId: payment.id, token: hostedPageToken(gatewayKey, payment.id) }),
    // The hosted QR page, with the locale rule of every payUrl (contract 10).
    qrPageUrl: hostedPayUrl({ gatewayKey, page: "qr", paymentId: payment.id, locale: context.locale }),
  };
};
