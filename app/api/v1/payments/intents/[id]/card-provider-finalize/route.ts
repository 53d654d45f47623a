import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { finalizeCardPayment } from "@/lib/payments/finalize-card-payment";
import { toCardFinalizeView, type CardFinalizeOutcome } from "@/lib/payments/finalize-card-payment.schema";

const respond = (outcome: CardFinalizeOutcome) => ({ data: toCardFinalizeView(outcome), message: "Card payment finalized." });

// POST /api/v1/payments/intents/:paymentActionId/card-provider-finalize (x-client-secret only)
export const POST = endpoint(
  op.finalizeCardPayment,
  async ({ db, principal, body, idempotency }) =>
    respond(
      await finalizeCardPayment(db, {
        paymentId: principal.paymentId,
        paymentIntentId: body.paymentIntentId,
        externalCardId: body.externalCardId,
        remember: idempotency.remember(respond),
      }),
    ),
);
