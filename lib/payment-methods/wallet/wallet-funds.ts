import type { MethodFunds } from "../../payments/core/method-funds";
import { withdrawExpiredQrCharge } from "./settle-qr-charge";
import { hasOpenWalletCharge } from "./wallet-charge-record";
import { walletOperationRequest } from "./wallet-operations";

/** WALLET_V2's funds (lib/payments/core/method-funds.ts): the wallet's hold, released to return it. */
export const walletFunds: MethodFunds = {
  provider: "wallet",
  releaseKind: "release",
  request: async (_tx, payment) => walletOperationRequest(payment),
  expiry: {
    // The wallet may have taken the money of a charge sent and not settled: reconciliation settles it first.
    chargeOpen: (tx, payment) => hasOpenWalletCharge(tx, payment.id),
    // An open intent holds nothing at the wallet.
    closeUnfinished: async () => {},
    // A QR request whose open charge kept the payment from expiring is withdrawn at the wallet.
    afterCommit: withdrawExpiredQrCharge,
  },
};
