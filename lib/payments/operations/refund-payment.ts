import { z } from "zod";
import type { ClientPrincipal } from "../../auth/principal";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { formatMinorUnits } from "../../money/amount";
import { minorUnitsOrThrow } from "../../money/amount.schema";
import {
  beginProviderOperation,
  findRequestOperation,
  operationInProgress,
  pendingRefundMinor,
  refusalError,
  runProviderOperation,
  type Begun,
} from "../../provider-operations";
import { handlerOf } from "../../provider-operation-registry/provider-operation-handlers";
import type { WithinTransaction } from "../../provider-operations";
import { getPaymentOrThrow } from "../core/get-payment-or-throw";
import { fundsOrThrow } from "../core/method-funds";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { assertTransition, PAYMENT_STATES } from "../core/payment-state";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import { causeRequestFields, type StateChangeCause } from "../core/state-change-cause";

export interface RefundOutcome {
  payment: PaymentRow;
  refundId: string;
  refundedMinor: number;
}

/**
 * Refunds a captured payment fully or in part. Amounts are integers of minor units, so 0.1
 * then 0.2 of 0.3 leaves exactly nothing refundable (REFUNDED). The provider (card or wallet)
 * pays it back through the provider-operation boundary. Several refunds of one payment may be
 * open at once: each reserves its amount while it is, so together they never exceed what was
 * captured (20 parallel refunds of 30%: exactly 3 succeed).
 */

const settledRefundSchema = z.object({
  refundId: z.string(),
  refundedTotalMinor: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  status: z.string(),
});
export async function refundPayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    /** Who asks (the API, a console user): recorded with the operation, the cause of the change it settles. */
    cause: StateChangeCause;
    /** Written in the transaction that records the operation (the console's audit entry); not on a retry. */
    withinTransaction?: WithinTransaction;
    input: { description: string; amount?: number; reason?: string };
    operationKey?: string;
    /** What the request asked, when operationKey alone does not say it (a console form): see findRequestOperation. */
    operationFingerprint?: string;
  },
): Promise<RefundOutcome> {
  const now = serviceClock(options.principal.service).now();
  return runProviderOperation<RefundOutcome>(db, {
    handlerOf,
    async begin(tx): Promise<Begun<RefundOutcome>> {
      const payment = await getPaymentOrThrow(tx, {
        principal: options.principal,
        paymentId: options.paymentId,
        lock: true,
      });
      const { operation: retried, id } = await findRequestOperation(tx, {
        operationKey: options.operationKey,
        paymentId: payment.id,
        now,
        fingerprint: options.operationFingerprint,
      });
      if (retried) return { kind: "operation", operation: retried };
      assertTransition(payment.state, "refund_partial");
      // Contract 15: a provider whose API cannot refund says where the merchant refunds instead.
      const elsewhere = paymentMethodOf(payment.paymentMethodCode)?.redirect?.refundElsewhere;
      if (elsewhere) throw new ApiError("invalid_state", elsewhere);
      // Refunds still open at the provider hold their amount: parallel refunds never exceed the captured total.
      const reserved = await pendingRefundMinor(tx, payment.id);
      const refundable = payment.capturedMinor - payment.refundedMinor - reserved;
      const { amount } = options.input;
      if (amount === undefined && refundable === 0 && reserved > 0) throw operationInProgress();
      const amountMinor = amount === undefined ? refundable : minorUnitsOrThrow(amount, payment.currency);
      if (amountMinor > refundable) {
        throw new ApiError(
          "amount_exceeds_refundable",
          "The refund amount is above the remaining refundable " +
            `${formatMinorUnits(refundable, payment.currency)} ${payment.currency}.`,
        );
      }
      const funds = fundsOrThrow(methodFunds, payment);
      const request = {
        ...(await funds.request(tx, payment)),
        description: options.input.description,
        reason: options.input.reason ?? null,
        ...causeRequestFields(options.cause),
        ...(options.operationFingerprint !== undefined ? { requestFingerprint: options.operationFingerprint } : {}),
      };
      return {
        kind: "operation",
        operation: await beginProviderOperation(tx, {
          id,
          now,
          paymentId: payment.id,
          provider: funds.provider,
          kind: "refund",
          amountMinor,
          request,
          withinTransaction: options.withinTransaction,
        }),
      };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      const result = settledRefundSchema.parse(operation.result);
      const payment = (await findPayment(db, options.paymentId))!;
      // The payment as this refund left it: other refunds of the payment may have settled since.
      const asLeft = {
        ...payment,
        refundedMinor: result.refundedTotalMinor,
        state: result.state,
        status: result.status,
      };
      return { payment: asLeft, refundId: result.refundId, refundedMinor: operation.amountMinor! };
    },
  });
}
