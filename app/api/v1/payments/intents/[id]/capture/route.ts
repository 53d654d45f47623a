import { endpoint } from "@/lib/http/endpoint";
import { capturePayment } from "@/lib/payments/capture-payment";
import { capturePaymentBody } from "@/lib/payments/capture-payment.schema";
import type { PaymentRow } from "@/lib/payments/payment-record";
import { toCaptureResultView } from "@/lib/payments/payment-views";

const respond = (payment: PaymentRow) => ({ data: toCaptureResultView(payment), message: "Payment captured." });

// POST /api/v1/payments/intents/:id/capture
export const POST = endpoint(
  { auth: ["client"], body: capturePaymentBody, idempotent: "payments.capture" },
  async ({ db, principal, params, body, idempotency }) =>
    respond(
      await capturePayment(db, { principal, paymentId: params.id ?? "", input: body, remember: idempotency.remember(respond), operationKey: idempotency.operationKey }),
    ),
);
