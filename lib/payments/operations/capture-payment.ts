import type { ClientPrincipal } from "../../auth/principal";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { formatMinorUnits } from "../../money/amount";
import { minorUnitsOrThrow } from "../../money/amount.schema";
import {
  beginProviderOperation,
  findRequestOperation,
  refusalError,
  runProviderOperation,
  type Begun,
  type ProviderOperationRow,
} from "../../provider-operations";
import { handlerOf } from "../../provider-operation-registry/provider-operation-handlers";
import type { WithinTransaction } from "../../provider-operations";
import type { CapturePaymentBody } from "./capture-payment.schema";
import { getPaymentOrThrow } from "../core/get-payment-or-throw";
import { fundsOrThrow } from "../core/method-funds";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import { findPayment, type PaymentRow } from "../../db/payment-record";
import { assertTransition } from "../core/payment-state";
import { causeRequestFields, type StateChangeCause } from "../core/state-change-cause";
import { isStaleReservation, releaseStaleReservation, returnStaleFunds } from "../core/release-stale-reservation";

type Captured = { stale: true; release: ProviderOperationRow } | { stale: false; captured: PaymentRow };

/**
 * Captures a PRE_AUTHORIZED reservation in full or in part; the rest of the hold goes back.
 * Not bound by the 30 minutes (contract section 4). The provider (card or wallet) captures it
 * through the provider-operation boundary: recorded here, called, settled after. The answer
 * for a retry with the same key is the payment as it stands.
 */
export async function capturePayment(
  db: Db,
  options: {
    principal: ClientPrincipal;
    paymentId: string;
    /** Who asks (the API, a console user): recorded with the operation, the cause of the change it settles. */
    cause: StateChangeCause;
    /** Written in the transaction that records the operation (the console's audit entry); not on a retry. */
    withinTransaction?: WithinTransaction;
    input: CapturePaymentBody;
    /** The request's Idempotency-Key scope: a retry finds the same provider operation. */
    operationKey?: string;
    /** What the request asked, when operationKey alone does not say it (a console form): see findRequestOperation. */
    operationFingerprint?: string;
  },
): Promise<PaymentRow> {
  const now = serviceClock(options.principal.service).now();
  const outcome = await runProviderOperation<Captured>(db, {
    handlerOf,
    async begin(tx): Promise<Begun<Captured>> {
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
      if (isStaleReservation(payment, now)) {
        // Committed although the call is refused: the 7 days are over either way (contract 4).
        return {
          kind: "done",
          result: { stale: true, release: await releaseStaleReservation(tx, { payment, now, methods: methodFunds }) },
        };
      }
      assertTransition(payment.state, "capture");
      const reserved = payment.amountMinor;
      const amountMinor =
        options.input.amount === undefined ? reserved : minorUnitsOrThrow(options.input.amount, payment.currency);
      if (amountMinor > reserved) {
        throw new ApiError(
          "amount_exceeds_reserved",
          "The capture amount is above the reserved " +
            `${formatMinorUnits(reserved, payment.currency)} ${payment.currency}.`,
        );
      }
      const { provider, request: requestOf } = fundsOrThrow(methodFunds, payment);
      const request = {
        ...(await requestOf(tx, payment)),
        ...causeRequestFields(options.cause),
        ...(options.operationFingerprint !== undefined ? { requestFingerprint: options.operationFingerprint } : {}),
      };
      return {
        kind: "operation",
        operation: await beginProviderOperation(tx, {
          id,
          now,
          paymentId: payment.id,
          provider,
          kind: "capture",
          amountMinor,
          request,
          withinTransaction: options.withinTransaction,
        }),
      };
    },
    async finish(db, operation) {
      if (operation.status === "failed") throw refusalError(operation);
      return { stale: false, captured: (await findPayment(db, options.paymentId))! };
    },
  });
  if (outcome.stale) {
    await returnStaleFunds(db, [outcome.release], methodFunds);
    throw new ApiError(
      "invalid_state",
      "The reservation was left alone 7 days and has been released; nothing can be captured.",
    );
  }
  return outcome.captured;
}
