import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import { releasePayment } from "@/lib/payments/operations/release-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/intents/:id/release (the answer: op.releasePayment.answer)
export const POST = endpoint(op.releasePayment, ({ db, principal, params, idempotency }) =>
  releasePayment(db, {
    principal,
    paymentId: params.id ?? "",
    cause: API_CAUSE,
    operationKey: idempotency.operationKey,
  }),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
