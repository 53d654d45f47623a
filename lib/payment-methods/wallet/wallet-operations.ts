import {
  ProviderRefusedError,
  type ProviderOperationHandler,
  type ProviderOperationRow,
} from "../../provider-operations";
import { WalletProtocolError } from "../../providers/wallet/http-wallet-client";
import { connectedWallet, walletAccountOf } from "../../wallet-connection/wallet-connection";
import { settleCapture, settleRefund, settleRelease } from "../../payments/core/money-operation-settlements";
import type { PaymentRow } from "../../db/payment-record";

/*
 * The wallet's money-moving calls after the payment is taken (capture and release of a hold,
 * credit for a refund) as provider operations (lib/provider-operations): recorded under the
 * payment's lock, sent to the wallet service with the operation id as its operationId (the
 * protocol's idempotency key) outside any transaction, settled in a transaction of their own.
 */

/** What every wallet operation of a payment sends: its hold, account and currency. Read under the payment's lock. */
export function walletOperationRequest(payment: PaymentRow) {
  return {
    holdId: payment.providerReference,
    account: walletAccountOf(payment),
    currency: payment.currency,
  };
}

/** A named protocol error is the wallet's definite answer; a time-out, reset or 5xx is not. */
export async function askWallet<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof WalletProtocolError) throw new ProviderRefusedError(error.errorName, error.message);
    throw error;
  }
}

const holdOf = (operation: ProviderOperationRow) => {
  const holdId = operation.request.holdId;
  if (typeof holdId !== "string" || !holdId) throw new Error(`wallet operation ${operation.id} has no hold`);
  return holdId;
};

export const walletCapture: ProviderOperationHandler = {
  provider: "wallet",
  kind: "capture",
  async call(operation) {
    const wallet = await connectedWallet();
    const done = await askWallet(() =>
      wallet.captureHold(holdOf(operation), { operationId: operation.id, amountMinor: operation.amountMinor! }),
    );
    return { reference: done.reference, data: { releasedMinor: done.releasedMinor ?? 0 } };
  },
  settle: settleCapture,
};

export const walletRelease: ProviderOperationHandler = {
  provider: "wallet",
  kind: "release",
  async call(operation) {
    const wallet = await connectedWallet();
    const done = await askWallet(() => wallet.releaseHold(holdOf(operation), { operationId: operation.id }));
    return { reference: done.reference, data: { releasedMinor: done.releasedMinor ?? 0 } };
  },
  settle: settleRelease,
};

export const walletRefund: ProviderOperationHandler = {
  provider: "wallet",
  kind: "refund",
  async call(operation) {
    const wallet = await connectedWallet();
    const done = await askWallet(() =>
      wallet.credit({
        operationId: operation.id,
        paymentId: operation.paymentId!,
        account: operation.request.account as { merchantId: string; customerId: string },
        currency: String(operation.request.currency),
        amountMinor: operation.amountMinor!,
      }),
    );
    return { reference: done.reference };
  },
  settle: settleRefund,
};
