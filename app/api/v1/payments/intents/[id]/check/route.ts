import * as op from "@/lib/api/operations/payments";
import { endpoint } from "@/lib/http/endpoint";
import { checkPayment } from "@/lib/payments/operations/check-payment";
import { toCheckResultView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/payments/intents/:id/check
export const GET = endpoint(
  { ...op.checkPayment, readsPathPayment: true },
  async ({ db, principal, params, pathPayment }) => {
    const payment = await checkPayment(db, { principal, paymentId: params.id ?? "", alreadyRead: pathPayment });
    return { data: toCheckResultView(payment), message: "Payment status retrieved." };
  },
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
