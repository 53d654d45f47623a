import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { checkPayment } from "@/lib/payments/check-payment";
import { toCheckResultView } from "@/lib/payments/payment-views";

// GET /api/v1/payments/intents/:id/check
export const GET = endpoint(
  op.checkPayment,
  async ({ db, principal, params }) => {
    const payment = await checkPayment(db, { principal, paymentId: params.id ?? "" });
    return { data: toCheckResultView(payment), message: "Payment status retrieved." };
  },
);
