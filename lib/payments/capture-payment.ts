import type { ClientPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { paymentCaptures } from "../db/schema";
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
import type { CapturePaymentBody } from "./capture-payment.schema";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { STATUS_TEXT } from "./payment-messages";
import { captureFunds, operationProviderOf } from "./payment-funds";
import { findPayment, type PaymentRow } from "./payment-record";
import { assertTransition } from "./payment-state";
import { isStaleReservation, releaseStaleReservation } from "./release-stale-reservation";

type Captured = { stale: true } | { stale: false; captured: PaymentRow };

/**
 * Captures a PRE_AUTHORIZED reservation in full or in part; the rest of the hold goes back.
 * Not bound by the 30 minutes (contract section 4). A provider-held reservation (card) is
 * captured through the provider-operation boundary: recorded here, called, settled after.
 */
export async function capturePayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    input: CapturePaymentBody;
    remember?: BeforeCommit<PaymentRow>;
    /** The request's Idempotency-Key scope: a retry finds the same provider operation. */
    operationKey?: string;
  },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  const id = operationId(options.operationKey);
  const outcome = await runProviderOperation<Captured>(db, {
    async begin(tx): Promise<Begun<Captured>> {
      const payment = await getPaymentOrThrow(tx, { principal: options.principal, paymentId: options.paymentId, lock: true });
      const retried = options.operationKey ? await findProviderOperation(tx, id, { paymentId: payment.id }) : null;
      if (retried) return { kind: "operation", operation: retried };
      if (isStaleReservation(payment, now)) {
        // Committed although the call is refused: the 7 days are over either way (contract 4).
        await releaseStaleReservation(tx, { payment, now });
        return { kind: "done", result: { stale: true } };
      }
      assertTransition(payment.state, "capture");
      const reserved = payment.amountMinor;
      const amountMinor = options.input.amount === undefined ? reserved : minorUnitsOrThrow(options.input.amount, payment.currency);
      if (amountMinor > reserved) {
        throw new ApiError(
          "amount_exceeds_reserved",
          `The capture amount is above the reserved ${formatMinorUnits(reserved, payment.currency)} ${payment.currency}.`,
        );
      }
      const provider = operationProviderOf(payment);
      if (provider) {
        const request = await cardOperationRequest(tx, payment);
        return { kind: "operation", operation: await beginProviderOperation(tx, { id, paymentId: payment.id, provider, kind: "capture", amountMinor, request }) };
      }
      const { releasedMinor } = await captureFunds(tx, payment, amountMinor);
      await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor, releasedMinor });
      const captured = await applyTransition(tx, {
        payment,
        event: "capture",
        now,
        changes: { capturedMinor: payment.capturedMinor + amountMinor, status: STATUS_TEXT.captured },
        notification: { capturedMinor: amountMinor },
      });
      await options.remember?.(tx, captured);
      return { kind: "done", result: { stale: false, captured } };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      return { stale: false, captured: (await findPayment(db, options.paymentId))! };
    },
  });
  if (outcome.stale) {
    throw new ApiError("invalid_state", "The reservation was left alone 7 days and has been released; nothing can be captured.");
  }
  return outcome.captured;
}
