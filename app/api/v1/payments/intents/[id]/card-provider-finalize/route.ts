import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { settledOrThrow } from "@/lib/payments/operations/card-finalize-result";
import { finalizeCardPayment } from "@/lib/payments/operations/finalize-card-payment";
import { toCardFinalizeView, type CardFinalizeOutcome } from "@/lib/payments/operations/finalize-card-payment.schema";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";

const respond = (outcome: CardFinalizeOutcome) => ({ data: toCardFinalizeView(outcome), message: "Card payment finalized." });

// POST /api/v1/payments/intents/:paymentActionId/card-provider-finalize (x-client-secret only)
export const POST = endpoint(op.finalizeCardPayment, async ({ db, principal, body, idempotency }) =>
  respond(
    settledOrThrow(
      await finalizeCardPayment(db, {
        paymentId: principal.paymentId,
        paymentIntentId: body.paymentIntentId,
        externalCardId: body.externalCardId,
        cause: API_CAUSE,
        remember: idempotency.remember(respond),
      }),
    ),
  ),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
