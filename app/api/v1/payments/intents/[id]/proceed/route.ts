import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { proceedPayment } from "@/lib/payments/operations/proceed-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";

// POST /api/v1/payments/intents/:id/proceed (the answer: op.proceedPayment.answer, stored in proceed's transaction)
export const POST = endpoint(op.proceedPayment, ({ db, principal, params, body, headers, idempotency }) =>
  proceedPayment(db, {
    principal,
    paymentId: params.id ?? "",
    cause: API_CAUSE,
    input: body,
    headers,
    storeAnswer: idempotency.storeAnswer,
    operationKey: idempotency.operationKey,
  }),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
