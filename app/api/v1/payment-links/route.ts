import * as op from "@/lib/api/operations/payment-links";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { listPaymentLinks } from "@/lib/payment-links/list-payment-links";

// POST /api/v1/payment-links
export const POST = endpoint(op.createPaymentLink, async ({ db, principal, body }) => ({
  data: await createPaymentLink(db, { serviceId: principal.service.id, input: body }),
  message: "Payment link created.",
}));

// GET /api/v1/payment-links?limit=20&startingAfter=plink_...
export const GET = endpoint(op.listPaymentLinks, async ({ db, principal, query }) => {
  const { links, hasMore } = await listPaymentLinks(db, { serviceId: principal.service.id, ...query });
  return { data: links, envelope: { hasMore }, message: "Payment links, newest first." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
