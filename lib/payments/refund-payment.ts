import { eq } from "drizzle-orm";
import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { paymentRefunds } from "../db/schema";
import { ApiError } from "../http/api-error";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { formatMinorUnits } from "../money/amount";
import { minorUnitsOrThrow } from "../money/amount.schema";
import {
  beginProviderOperation,
  findProviderOperation,
  operationId,
  refusalError,
  runProviderOperation,
  type Begun,
} from "../provider-operations";
import { applyTransition } from "./apply-transition";
import { cardOperationRequest } from "./card-operations";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { operationProviderOf, refundFunds } from "./payment-funds";
import { findPayment, type PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";

export interface RefundOutcome {
  payment: PaymentRow;
  refundId: string;
  refundedMinor: number;
}

/**
 * Refunds a captured payment fully or in part. Amounts are integers of minor units, so 0.1
 * then 0.2 of 0.3 leaves exactly nothing refundable (REFUNDED). A card refund goes through
 * the provider-operation boundary; the wallet is credited inside the payment's transaction.
 */
export async function refundPayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    input: { description: string; amount?: number; reason?: string };
    remember?: BeforeCommit<RefundOutcome>;
    operationKey?: string;
  },
): Promise<RefundOutcome> {
  const now = serviceClock(options.principal.service).now();
  const id = operationId(options.operationKey);
  return runProviderOperation<RefundOutcome>(db, {
    async begin(tx): Promise<Begun<RefundOutcome>> {
      const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
      const retried = options.operationKey ? await findProviderOperation(tx, id, { paymentId: payment.id }) : null;
      if (retried) return { kind: "operation", operation: retried };
      assertTransition(payment.state, "refund_partial");
      const refundable = payment.capturedMinor - payment.refundedMinor;
      const { amount } = options.input;
      const amountMinor = amount === undefined ? refundable : minorUnitsOrThrow(amount, payment.currency);
      if (amountMinor > refundable) {
        throw new ApiError(
          "amount_exceeds_refundable",
          `The refund amount is above the remaining refundable ${formatMinorUnits(refundable, payment.currency)} ${payment.currency}.`,
        );
      }
      const provider = operationProviderOf(payment);
      if (provider) {
        const request = {
          ...(await cardOperationRequest(tx, payment)),
          description: options.input.description,
          reason: options.input.reason ?? null,
        };
        return { kind: "operation", operation: await beginProviderOperation(tx, { id, paymentId: payment.id, provider, kind: "refund", amountMinor, request }) };
      }
      const refundedMinor = payment.refundedMinor + amountMinor;
      const full = refundedMinor === payment.capturedMinor;
      const { reference } = await refundFunds(tx, payment, amountMinor);
      const [refund] = await tx
        .insert(paymentRefunds)
        .values({
          paymentId: payment.id,
          amountMinor,
          description: options.input.description,
          reason: options.input.reason ?? null,
          providerReference: reference,
        })
        .returning({ id: paymentRefunds.id });
      const updated = await applyTransition(tx, {
        payment,
        event: full ? "refund_full" : "refund_partial",
        now,
        changes: { refundedMinor, status: full ? STATUS_TEXT.refunded : STATUS_TEXT.partiallyRefunded },
        notification: { refundedMinor: amountMinor },
      });
      const outcome = { payment: updated, refundId: refund!.id, refundedMinor: amountMinor };
      await options.remember?.(tx, outcome);
      return { kind: "done", result: outcome };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      const refundId = String(operation.result?.refundId ?? "");
      const [refund] = await db.select({ amountMinor: paymentRefunds.amountMinor }).from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
      return { payment: (await findPayment(db, options.paymentId))!, refundId, refundedMinor: refund?.amountMinor ?? operation.amountMinor! };
    },
  });
}
