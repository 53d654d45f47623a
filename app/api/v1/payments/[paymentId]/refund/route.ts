import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import { refundPayment } from "@/lib/payments/operations/refund-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/:paymentId/refund (the answer: op.refundPayment.answer)
export const POST = endpoint(op.refundPayment, ({ db, principal, params, body, idempotency }) =>
  refundPayment(db, {
    principal,
    paymentId: params.paymentId ?? "",
    cause: API_CAUSE,
    input: body,
    operationKey: idempotency.operationKey,
  }),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
