import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { settledOrThrow, finalizeCardPayment } from "@/lib/payment-methods/registry/method-entry-points";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";

// POST /api/v1/payments/intents/:paymentActionId/card-provider-finalize (x-client-secret only;
// the answer: op.finalizeCardPayment.answer, stored in finalize's transaction)
export const POST = endpoint(op.finalizeCardPayment, async ({ db, principal, body, idempotency }) =>
  settledOrThrow(
    await finalizeCardPayment(db, {
      paymentId: principal.paymentId,
      paymentIntentId: body.paymentIntentId,
      externalCardId: body.externalCardId,
      cause: API_CAUSE,
      storeAnswer: idempotency.storeAnswer,
    }),
  ),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
