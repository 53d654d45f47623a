import * as op from "@/lib/api/operations/payment-links";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { getPaymentLink } from "@/lib/payment-links/get-payment-link";

// GET /api/v1/payment-links/:id
export const GET = endpoint(op.getPaymentLink, async ({ db, principal, params }) => ({
  data: await getPaymentLink(db, { serviceId: principal.service.id, id: params.id ?? "" }),
  message: "The payment link.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
