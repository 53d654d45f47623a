import type { Db } from "../../db/client";
import type { PaymentRow } from "../../db/payment-record";
import { connectedWallet, walletAccountOf } from "../../wallet-connection/wallet-connection";
import type { ProceedPrincipal } from "../contract/proceed-contract";
import type { QrRequestBody } from "../../providers/wallet/wallet-protocol";
import { walletCallOrApiError } from "./wallet-call-or-api-error";
import { openQrRequest } from "./wallet-qr";

/**
 * What the wallet said before the proceed's transaction: whether the balance covers the amount (the OTP was
 * sent when it does).
 */
export interface PreparedWalletProceed {
  fundsCover: boolean;
  /** A QR intent's request, opened at the wallet when the balance covers the amount. */
  qr?: QrRequestBody;
}

/**
 * The wallet calls of a proceed, made before the payment is locked (never inside the
 * transaction): the balance, then, when it covers the amount, the one-time code sent to the
 * customer, or for a QR intent the QR request opened (the wallet answers the open challenge or
 * request again on a repeat). Null when the proceed needs no call here: the owner paying in
 * person (charged through a provider operation), or a payment the transaction will refuse
 * anyway (it re-checks everything under its lock). `payment` and `methodEnabled` are the
 * proceed's read before its transaction (readProceedPayment).
 */
export async function prepareWalletProceed(
  db: Db,
  options: { principal: ProceedPrincipal; payment: PaymentRow; methodEnabled: boolean; now: Date },
): Promise<PreparedWalletProceed | null> {
  const { payment } = options;
  if (payment.state !== "CREATED" || (options.principal.mode === "user" && payment.transactionType !== "QR_CODE"))
    return null;
  if (!options.methodEnabled) return null;
  return walletCallOrApiError(async () => {
    const wallet = await connectedWallet({ now: options.now });
    const account = walletAccountOf(payment);
    const { availableMinor } = await wallet.balance({ ...account, currency: payment.currency });
    if (availableMinor < payment.amountMinor) return { fundsCover: false };
    // A QR intent is answered in the wallet app, whoever proceeds it: the wallet opens the request.
    if (payment.transactionType === "QR_CODE")
      return { fundsCover: true, qr: await openQrRequest(payment, options.now) };
    await wallet.startOtp({
      paymentId: payment.id,
      account,
      currency: payment.currency,
      amountMinor: payment.amountMinor,
    });
    return { fundsCover: true };
  });
}
