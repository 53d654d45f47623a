import { endpoint } from "@/lib/http/endpoint";
import { releasePaymentBody } from "@/lib/payments/capture-payment.schema";
import type { PaymentRow } from "@/lib/payments/payment-record";
import { toReleaseResultView } from "@/lib/payments/payment-views";
import { releasePayment } from "@/lib/payments/release-payment";

const respond = (payment: PaymentRow) => ({ data: toReleaseResultView(payment), message: "Reservation released." });

// POST /api/v1/payments/intents/:id/release
export const POST = endpoint(
  { auth: ["client"], body: releasePaymentBody, idempotent: "payments.release" },
  async ({ db, principal, params, idempotency }) =>
    respond(await releasePayment(db, { principal, paymentId: params.id ?? "", remember: idempotency.remember(respond), operationKey: idempotency.operationKey })),
);
