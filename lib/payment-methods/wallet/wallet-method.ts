import { completeWalletCharge } from "./wallet-charge";
import { walletDebit, walletHold } from "./wallet-charge-operations";
import { walletCapture, walletRefund, walletRelease } from "./wallet-operations";
import { walletFunds } from "./wallet-funds";
import { withdrawUnusedQrRequest } from "./wallet-qr";
import type { PaymentMethodModule } from "../contract/payment-method-module";
import { prepareWalletProceed, type PreparedWalletProceed } from "./prepare-wallet-proceed";
import { ownerChargeRetried, proceedWithWallet } from "./proceed-with-wallet";

/**
 * WALLET_V2: the customer's wallet, confirmed with a one-time code on the hosted OTP page, or
 * charged directly when the intent's own customer proceeds (user_auth). A QR_CODE intent is a
 * mode of this method, not a method of its own: the catalog has no QR code, the buyer proceeds
 * it with WALLET_V2 and the wallet app answers it, so proceedWithWallet hands it to proceedWithQr.
 */
export const walletMethod: PaymentMethodModule<PreparedWalletProceed> = {
  code: "WALLET_V2",
  hostedStep: "otp",
  showsQrCodeForQrIntents: true,
  userListing: "walletBalance",
  prepareProceed: prepareWalletProceed,
  proceed: proceedWithWallet,
  // A QR request the wallet opened for a proceed the transaction then refused is withdrawn, so the customer
  // cannot pay it.
  withdrawPrepared: (db, { paymentId, prepared }) => withdrawUnusedQrRequest(db, { paymentId, qr: prepared?.qr }),
  chargeToRetryOnProceed: ownerChargeRetried,
  completePendingCharge: completeWalletCharge,
  // The charge (debit or hold, also a QR request's), then what follows a hold and a refund.
  providerOperations: [walletDebit, walletHold, walletCapture, walletRelease, walletRefund],
  funds: walletFunds,
  redirect: null,
  console: { kind: "wallet", showsCard: false },
  endUserMessages: {
    requiresAction: "Please confirm the payment with the code sent to your phone.",
    preAuthorized: "The amount is reserved on your wallet.",
  },
};
