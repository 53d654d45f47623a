import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import { capturePayment } from "@/lib/payments/operations/capture-payment";
import type { PaymentRow } from "@/lib/db/payment-record";
import { toCaptureResultView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";

const respond = (payment: PaymentRow) => ({ data: toCaptureResultView(payment), message: "Payment captured." });

// POST /api/v1/payments/intents/:id/capture
export const POST = endpoint(
  op.capturePayment,
  async ({ db, principal, params, body, idempotency }) =>
    respond(
      await capturePayment(db, { principal, paymentId: params.id ?? "", cause: API_CAUSE, input: body, operationKey: idempotency.operationKey }),
    ),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
