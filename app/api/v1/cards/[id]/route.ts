import { deleteSavedCard } from "@/lib/cards/delete-saved-card";
import { deleteSavedCardHeaders } from "@/lib/cards/saved-cards.schema";
import { endpoint } from "@/lib/http/endpoint";

// DELETE /api/v1/cards/:id
export const DELETE = endpoint(
  { auth: ["user"], headers: deleteSavedCardHeaders },
  async ({ db, principal, params }) => {
    await deleteSavedCard(db, { principal, cardId: params.id ?? "" });
    return { data: null, message: "Card deleted." };
  },
);
