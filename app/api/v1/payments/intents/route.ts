import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { serviceClock } from "@/lib/clock";
import { endpointFoldingClientAuth } from "@/lib/http/endpoint";
import { createPaymentIntent, createPaymentIntentAsClient } from "@/lib/payments/operations/create-payment-intent";
import { toPaymentIntentView } from "@/lib/payments/operations/payment-views";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/payments/intents?countryCode=DZA: client_auth and the insert in one statement.
export const POST = endpointFoldingClientAuth(
  op.createPaymentIntent,
  async ({ db, clientAuth, body, query }) => {
    const created = clientAuth.folded
      ? await createPaymentIntentAsClient(db, { auth: clientAuth.folded, authenticate: clientAuth.authenticate, query, input: body })
      : await createPaymentIntent(db, { service: clientAuth.principal.service, query, input: body, clock: serviceClock(clientAuth.principal.service), cause: API_CAUSE });
    return { data: toPaymentIntentView(created.payment, created), message: "Payment intent created." };
  },
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
