import { endpoint } from "@/lib/http/endpoint";
import { toRefundResultView } from "@/lib/payments/payment-views";
import { refundPayment, type RefundOutcome } from "@/lib/payments/refund-payment";
import { refundPaymentBody } from "@/lib/payments/refund-payment.schema";

const respond = (outcome: RefundOutcome) => ({ data: toRefundResultView(outcome), message: "Refund processed." });

// POST /api/v1/payments/:paymentId/refund
export const POST = endpoint(
  { auth: ["client"], body: refundPaymentBody, idempotent: "payments.refund" },
  async ({ db, principal, params, body, idempotency }) =>
    respond(
      await refundPayment(db, {
        principal,
        paymentId: params.paymentId ?? "",
        input: body,
        remember: idempotency.remember(respond), operationKey: idempotency.operationKey,
      }),
    ),
);
