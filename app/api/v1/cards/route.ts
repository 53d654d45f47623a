import * as op from "@/lib/api/operations/payment-methods";
import { listSavedCards } from "@/lib/cards/list-saved-cards";
import { toSavedCardViews } from "@/lib/cards/saved-card-view";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/cards?pmCode=CARD_PROVIDER
export const GET = endpoint(op.listSavedCards, async ({ db, principal, query }) => {
  const cards = await listSavedCards(db, {
    serviceId: principal.service.id,
    customerId: principal.customerId,
    paymentMethodCode: query.pmCode,
  });
  return { data: toSavedCardViews(cards), message: "Saved cards." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
