import * as op from "@/lib/api/operations/payment-links";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { deactivatePaymentLink } from "@/lib/payment-links/deactivate-payment-link";

// POST /api/v1/payment-links/:id/deactivate
export const POST = endpoint(op.deactivatePaymentLink, async ({ db, principal, params }) => ({
  data: await deactivatePaymentLink(db, { serviceId: principal.service.id, id: params.id ?? "" }),
  message: "The payment link takes no more payments.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
