import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import { capturePayment } from "@/lib/payments/operations/capture-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/intents/:id/capture (the answer: op.capturePayment.answer)
export const POST = endpoint(op.capturePayment, ({ db, principal, params, body, idempotency }) =>
  capturePayment(db, {
    principal,
    paymentId: params.id ?? "",
    cause: API_CAUSE,
    input: body,
    operationKey: idempotency.operationKey,
  }),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
