import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { createWithClientAuth } from "@/lib/api/create-with-client-auth";
import { endpointWithClientAuthInStatement } from "@/lib/http/endpoint";
import { createPaymentIntent } from "@/lib/payments/operations/create-payment-intent";
import { toPaymentIntentView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/intents?countryCode=DZA: client_auth judged in the insert's statement where it can.
export const POST = endpointWithClientAuthInStatement(
  op.createPaymentIntent,
  async ({ db, clientAuth, body, query }) => {
    const created = await createPaymentIntent(db, {
      creator: createWithClientAuth(clientAuth),
      query,
      input: body,
      cause: API_CAUSE,
    });
    return { data: toPaymentIntentView(created.payment, created), message: "Payment intent created." };
  },
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
