import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { listAvailablePaymentMethods } from "@/lib/payment-methods/list-available-payment-methods";

// GET /api/v1/payment-methods/available?countryCode=DZ
export const GET = endpoint(
  op.listAvailablePaymentMethods,
  async ({ db, principal, query, headers }) => ({
    data: await listAvailablePaymentMethods(db, {
      service: principal.service,
      countryCode: query.countryCode,
      xLocale: headers["x-locale"],
    }),
    message: "Available payment methods.",
  }),
);
