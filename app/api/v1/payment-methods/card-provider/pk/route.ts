import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { getCardProviderKey } from "@/lib/payment-methods/get-card-provider-key";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/payment-methods/card-provider/pk
export const GET = endpoint(op.getCardProviderKey, async ({ db, principal, headers }) => ({
  data: await getCardProviderKey(db, { principal, countryHeader: headers["x-country-code"] }),
  message: "Card provider publishable key.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
