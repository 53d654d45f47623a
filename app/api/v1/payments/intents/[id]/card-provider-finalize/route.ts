import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { settledOrThrow } from "@/lib/payments/operations/card-finalize-result";
import { finalizeCardPayment } from "@/lib/payments/operations/finalize-card-payment";
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
