import { paymentCaptures, type payments } from "../../db/schema";
import type { ProviderOperationHandler, ProviderOperationRow } from "../../provider-operations";
import { connectedWallet } from "../../wallet-connection/wallet-connection";
import { applyTransition } from "../../payments/core/apply-transition";
import { failForInsufficientFunds } from "./fail-for-insufficient-funds";
import { FAILURE_REASON, STATUS_TEXT } from "../../payments/core/payment-messages";
import { askWallet } from "./wallet-operations";
import { askQrAnswer, failQrCharge, isQrCharge } from "./wallet-qr-charge";
import { causeOfOperation } from "../../payments/core/state-change-cause";

/*
 * The wallet charge's provider operations (wallet-charge.ts records them): "debit" (DIRECT) and
 * "hold" (RESERVATION). A QR request's charge is the same operation, answered by the customer
 * in the wallet app instead of sent by the gateway (wallet-qr-charge.ts).
 */

const AWAITING_CHARGE = ["CREATED", "REQUIRES_ACTION", "PROCESSING"] as const;
/** The proceed's facts the charge writes with its transition (ProceedContext["changes"]). */
export type ChargeChanges = Pick<typeof payments.$inferInsert, "paymentMethodCode" | "platform" | "locale">;

const changesOf = (operation: ProviderOperationRow) => (operation.request.changes ?? {}) as ChargeChanges;

function walletChargeHandler(kind: "debit" | "hold"): ProviderOperationHandler {
  return {
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
          changes: {
            ...changes,
            capturedMinor: payment.amountMinor,
            providerReference: answer.reference,
            status: STATUS_TEXT.succeeded,
          },
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
        await failForInsufficientFunds(tx, {
          payment,
          now,
          cause: causeOfOperation(operation),
          changes: changesOf(operation),
        });
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
          changes: {
            ...changesOf(operation),
            failureReason: FAILURE_REASON.walletRefused,
            status: `${STATUS_TEXT.walletRefused} (${code})`,
          },
        });
      }
    },
  };
}

export const walletDebit = walletChargeHandler("debit");
export const walletHold = walletChargeHandler("hold");

/** The handler of a recorded wallet charge (its kind follows the payment's capture method). */
export function walletChargeHandlerOf(operation: Pick<ProviderOperationRow, "kind">): ProviderOperationHandler {
  return operation.kind === "debit" ? walletDebit : walletHold;
}
