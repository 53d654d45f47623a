import * as op from "@/lib/api/operations/payments";
import { serviceClock } from "@/lib/clock";
import { endpoint } from "@/lib/http/endpoint";
import { createPaymentIntent } from "@/lib/payments/operations/create-payment-intent";
import { toPaymentIntentView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/intents?countryCode=DZA
export const POST = endpoint(
  op.createPaymentIntent,
  async ({ db, principal, body, query }) => {
    const clock = serviceClock(principal.service);
    const { payment, clientSecret } = await createPaymentIntent(db, { service: principal.service, query, input: body, clock });
    return { data: toPaymentIntentView(payment, clientSecret), message: "Payment intent created." };
  },
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
