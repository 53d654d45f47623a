import type { Db } from "../../db/client";
import { paymentCaptures } from "../../db/schema";
import {
  beginProviderOperation,
  completeProviderOperation,
  findProviderOperation,
  operationInProgress,
  registerProviderOperation,
  type ProviderOperationRow,
} from "../../provider-operations";
import { connectedWallet, walletAccountOf } from "../../wallet-connection/wallet-connection";
import { applyTransition } from "./apply-transition";
import { failForFunds } from "./charge-wallet";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import type { payments } from "../../db/schema";
import { askWallet } from "./wallet-operations";
import { walletChargeOperationId } from "./wallet-charge-record";
import { askQrAnswer, failQrCharge, isQrCharge } from "./wallet-qr-charge";
import { causeOfOperation, causeRequestFields, type StateChangeCause } from "./state-change-cause";

/*
 * Taking a wallet payment's money once nothing else stands in the way (OTP verified, or the
 * owner proceeding in person): a provider operation (lib/provider-operations) of kind "debit"
 * (DIRECT: SUCCEEDED, 2) or "hold" (RESERVATION: PRE_AUTHORIZED, 13), recorded under the
 * payment's lock, sent to the wallet outside any transaction, settled after. The operation id
 * is derived from the payment, so a repeated verify or a retried proceed finds the same charge
 * and the wallet applies it once. A wallet that refuses the charge (it cannot cover the amount,
 * or will not pay from this account) fails the payment (3).
 */

const AWAITING_CHARGE = ["CREATED", "REQUIRES_ACTION", "PROCESSING"] as const;
/** The proceed's facts the charge writes with its transition (ProceedContext["changes"]). */
type ChargeChanges = Pick<typeof payments.$inferInsert, "paymentMethodCode" | "platform" | "locale">;


/**
 * Records the charge on the locked payment. A charge recorded before is taken up again when
 * its outcome is unknown (the wallet did not answer: asking again with the same id is safe);
 * one a live request is still sending answers 409 request_in_progress, so parallel submits
 * of one code charge once and only one of them answers the outcome.
 */
export async function beginWalletCharge(
  tx: Db,
  options: {
    payment: PaymentRow;
    /** Who makes the charge (the buyer's OTP, the owner through the API): the cause of the change it settles. */
    cause: StateChangeCause;
    changes?: ChargeChanges;
    /** The Idempotency-Key scope of the request that makes the charge (IdempotencyScope.operationKey). */
    requestKey?: string;
  },
): Promise<ProviderOperationRow> {
  const { payment } = options;
  const id = walletChargeOperationId(payment.id);
  const recorded = await findWalletCharge(tx, payment.id);
  if (recorded?.status === "pending") throw operationInProgress();
  if (recorded) return recorded;
  return beginProviderOperation(tx, {
    id,
    paymentId: payment.id,
    provider: "wallet",
    kind: payment.captureMethod === "DIRECT" ? "debit" : "hold",
    amountMinor: payment.amountMinor,
    request: {
      account: walletAccountOf(payment),
      currency: payment.currency,
      changes: options.changes ?? {},
      ...causeRequestFields(options.cause),
      ...(options.requestKey !== undefined ? { requestKey: options.requestKey } : {}),
    },
  });
}

/** The payment's wallet charge as recorded, whatever its status; null before one was made. */
export function findWalletCharge(tx: Db, paymentId: string): Promise<ProviderOperationRow | null> {
  return findProviderOperation(tx, walletChargeOperationId(paymentId), { paymentId });
}

/** Calls the wallet for a recorded charge and answers the payment as it then stands. */
export async function completeWalletCharge(db: Db, operation: ProviderOperationRow): Promise<PaymentRow> {
  await completeProviderOperation(db, operation);
  return (await findPayment(db, operation.paymentId!))!;
}


const changesOf = (operation: ProviderOperationRow) => (operation.request.changes ?? {}) as ChargeChanges;

for (const kind of ["debit", "hold"] as const) {
  registerProviderOperation({
    provider: "wallet",
    kind,
    async call(operation) {
      // A QR request's charge is the customer's to make: the wallet is asked for the answer, never to charge.
      if (isQrCharge(operation)) return askQrAnswer(operation);
      const wallet = await connectedWallet();
      const movement = {
        operationId: operation.id,
        paymentId: operation.paymentId!,
        account: operation.request.account as { merchantId: string; customerId: string },
        currency: String(operation.request.currency),
        amountMinor: operation.amountMinor!,
      };
      const done = await askWallet(() => (kind === "debit" ? wallet.debit(movement) : wallet.hold(movement)));
      return { reference: done.reference };
    },
    async settle(tx, { operation, payment, answer, now }) {
      // Only a payment still awaiting its money changes (an open charge keeps it from expiring).
      if (!(AWAITING_CHARGE as readonly string[]).includes(payment.state)) return {};
      // A QR approval carries the wallet's approval code, which check reports with the payment.
      const approvalCode = typeof answer.data?.approvalCode === "string" ? answer.data.approvalCode : undefined;
      const changes = { ...changesOf(operation), ...(approvalCode ? { approvalCode } : {}) };
      if (kind === "debit") {
        // A direct payment is captured whole at once; the capture row keeps the sums derivable.
        await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor: payment.amountMinor });
        await applyTransition(tx, {
          payment,
          event: "succeed",
          cause: causeOfOperation(operation),
          now,
          changes: { ...changes, capturedMinor: payment.amountMinor, providerReference: answer.reference, status: STATUS_TEXT.succeeded },
        });
      } else {
        await applyTransition(tx, {
          payment,
          event: "pre_authorize",
          cause: causeOfOperation(operation),
          now,
          changes: { ...changes, authorizedAt: now, providerReference: answer.reference, status: STATUS_TEXT.reserved },
        });
      }
      return {};
    },
    async fail(tx, { operation, payment, code, now }) {
      if (!(AWAITING_CHARGE as readonly string[]).includes(payment.state)) return;
      if (code === "insufficient_funds") {
        await failForFunds(tx, { payment, now, cause: causeOfOperation(operation), changes: changesOf(operation) });
      } else if (isQrCharge(operation)) {
        await failQrCharge(tx, { payment, code, now, cause: causeOfOperation(operation) });
      } else {
        // Any other definite refusal (an account the wallet does not know or has closed): the
        // wallet will not pay this payment, so it fails (3) like a declined card, instead of
        // waiting in PROCESSING or REQUIRES_ACTION, with nothing else able to take it, until it expires.
        await applyTransition(tx, {
          payment,
          event: "fail",
          cause: causeOfOperation(operation),
          now,
          changes: { ...changesOf(operation), failureReason: FAILURE_REASON.walletRefused, status: `${STATUS_TEXT.walletRefused} (${code})` },
        });
      }
    },
  });
}
