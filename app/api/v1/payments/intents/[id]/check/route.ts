import { endpoint } from "@/lib/http/endpoint";
import { checkPayment } from "@/lib/payments/check-payment";
import { paymentCallHeaders } from "@/lib/payments/proceed-payment.schema";
import { toCheckResultView } from "@/lib/payments/payment-views";

// GET /api/v1/payments/intents/:id/check
export const GET = endpoint(
  { auth: ["client", "merchant", "user"], requireServiceHeader: true, headers: paymentCallHeaders },
  async ({ db, principal, params }) => {
    const payment = await checkPayment(db, { principal, paymentId: params.id ?? "" });
    return { data: toCheckResultView(payment), message: "Payment status retrieved." };
  },
);
