import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { getCardProviderKey } from "@/lib/payment-methods/get-card-provider-key";

// GET /api/v1/payment-methods/card-provider/pk
export const GET = endpoint(
  op.getCardProviderKey,
  async ({ db, principal, headers }) => ({
    data: await getCardProviderKey(db, { principal, countryHeader: headers["x-country-code"] }),
    message: "Card provider publishable key.",
  }),
);
