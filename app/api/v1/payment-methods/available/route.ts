import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { listAvailablePaymentMethods } from "@/lib/payment-methods/list-available-payment-methods";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/payment-methods/available?countryCode=DZ
export const GET = endpoint(op.listAvailablePaymentMethods, async ({ db, principal, query, headers }) => ({
  data: await listAvailablePaymentMethods(db, {
    service: principal.service,
    countryCode: query.countryCode,
    xLocale: headers["x-locale"],
  }),
  message: "Available payment methods.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
