import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { proceedPayment } from "@/lib/payments/proceed-payment";
import type { ProceedOutcome } from "@/lib/payments/proceed-payment.schema";
import { toProceedResultView } from "@/lib/payments/payment-views";

const respond = (outcome: ProceedOutcome) => ({ data: toProceedResultView(outcome), message: outcome.status });

// POST /api/v1/payments/intents/:id/proceed
export const POST = endpoint(
  op.proceedPayment,
  async ({ db, principal, params, body, headers, idempotency }) =>
    respond(
      await proceedPayment(db, {
        principal,
        paymentId: params.id ?? "",
        input: body,
        headers,
        remember: idempotency.remember(respond),
      }),
    ),
);
