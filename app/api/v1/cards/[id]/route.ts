import * as op from "@/lib/api/operations/payment-methods";
import { deleteSavedCard } from "@/lib/cards/delete-saved-card";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// DELETE /api/v1/cards/:id
export const DELETE = endpoint(op.deleteSavedCard, async ({ db, principal, params }) => {
  await deleteSavedCard(db, { principal, cardId: params.id ?? "" });
  return { data: null, message: "Card deleted." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
