import * as op from "@/lib/api/operations/payment-methods";
import { deleteSavedCard } from "@/lib/cards/delete-saved-card";
import { endpoint } from "@/lib/http/endpoint";

// DELETE /api/v1/cards/:id
export const DELETE = endpoint(
  op.deleteSavedCard,
  async ({ db, principal, params }) => {
    await deleteSavedCard(db, { principal, cardId: params.id ?? "" });
    return { data: null, message: "Card deleted." };
  },
);
