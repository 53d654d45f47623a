import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { proceedPayment } from "@/lib/payments/operations/proceed-payment";
import type { ProceedOutcome } from "@/lib/payment-methods/contract/proceed-contract";
import { toProceedResultView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";

const respond = (outcome: ProceedOutcome) => ({ data: toProceedResultView(outcome), message: outcome.status });

// POST /api/v1/payments/intents/:id/proceed
export const POST = endpoint(
  op.proceedPayment,
  async ({ db, principal, params, body, headers, idempotency }) =>
    respond(
      await proceedPayment(db, {
        principal,
        paymentId: params.id ?? "",
        cause: API_CAUSE,
        input: body,
        headers,
        remember: idempotency.remember(respond),
        operationKey: idempotency.operationKey,
      }),
    ),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
