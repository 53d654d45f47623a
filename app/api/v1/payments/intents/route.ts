import * as op from "@/lib/api/operations/payments";
import { serviceClock } from "@/lib/clock";
import { endpoint } from "@/lib/http/endpoint";
import { createPaymentIntent } from "@/lib/payments/create-payment-intent";
import { toPaymentIntentView } from "@/lib/payments/payment-views";

// POST /api/v1/payments/intents?countryCode=DZA
export const POST = endpoint(
  op.createPaymentIntent,
  async ({ db, principal, body, query }) => {
    const clock = serviceClock(principal.service);
    const { payment, clientSecret } = await createPaymentIntent(db, { service: principal.service, query, input: body, clock });
    return { data: toPaymentIntentView(payment, clientSecret), message: "Payment intent created." };
  },
);
