import type { Db } from "../../db/client";
import { isMethodEnabled } from "../../payment-methods/method-enabled";
import { connectedWallet, walletAccountOf } from "../../wallet-connection/wallet-connection";
import { getPaymentOrThrow } from "../core/get-payment-or-throw";
import type { PreparedWalletProceed, ProceedPrincipal } from "./proceed-payment.schema";
import { askedWallet } from "../core/asked-wallet";
import { openQrRequest } from "../core/wallet-qr";

/**
 * The wallet calls of a proceed, made before the payment is locked (never inside the
 * transaction): the balance, then, when it covers the amount, the one-time code sent to the
 * customer, or for a QR intent the QR request opened (the wallet answers the open challenge or
 * request again on a repeat). Null when the proceed needs no call here: the owner paying in
 * person (charged through a provider operation), or a payment the transaction will refuse
 * anyway (it re-checks everything under its lock).
 */
export async function prepareWalletProceed(
  db: Db,
  options: { principal: ProceedPrincipal; paymentId: string; now: Date },
): Promise<PreparedWalletProceed | null> {
  const payment = await getPaymentOrThrow(db, { principal: options.principal, paymentId: options.paymentId });
  if (payment.state !== "CREATED" || (options.principal.mode === "user" && payment.transactionType !== "QR_CODE")) return null;
  if (!(await isMethodEnabled(db, { service: options.principal.service, country: payment.country, code: "WALLET_V2" }))) return null;
  return askedWallet(async () => {
    const wallet = await connectedWallet({ now: options.now });
    const account = walletAccountOf(payment);
    const { availableMinor } = await wallet.balance({ ...account, currency: payment.currency });
    if (availableMinor < payment.amountMinor) return { fundsCover: false };
    // A QR intent is answered in the wallet app, whoever proceeds it: the wallet opens the request.
    if (payment.transactionType === "QR_CODE") return { fundsCover: true, qr: await openQrRequest(payment, options.now) };
    await wallet.startOtp({ paymentId: payment.id, account, currency: payment.currency, amountMinor: payment.amountMinor });
    return { fundsCover: true };
  });
}
