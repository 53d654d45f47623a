import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import { toRefundResultView } from "@/lib/payments/operations/payment-views";
import { refundPayment, type RefundOutcome } from "@/lib/payments/operations/refund-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";

const respond = (outcome: RefundOutcome) => ({ data: toRefundResultView(outcome), message: "Refund processed." });

// POST /api/v1/payments/:paymentId/refund
export const POST = endpoint(
  op.refundPayment,
  async ({ db, principal, params, body, idempotency }) =>
    respond(
      await refundPayment(db, {
        principal,
        paymentId: params.paymentId ?? "",
        cause: API_CAUSE,
        input: body,
        operationKey: idempotency.operationKey,
      }),
    ),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
