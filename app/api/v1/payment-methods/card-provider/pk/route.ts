import { endpoint } from "@/lib/http/endpoint";
import { getCardProviderKey } from "@/lib/payment-methods/get-card-provider-key";
import { cardProviderKeyHeaders } from "@/lib/payment-methods/payment-methods.schema";

// GET /api/v1/payment-methods/card-provider/pk
export const GET = endpoint(
  { auth: ["client", "user", "merchant"], requireServiceHeader: true, headers: cardProviderKeyHeaders },
  async ({ db, principal, headers }) => ({
    data: await getCardProviderKey(db, { principal, countryHeader: headers["x-country-code"] }),
    message: "Card provider publishable key.",
  }),
);
