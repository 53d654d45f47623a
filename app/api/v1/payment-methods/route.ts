import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { listUserPaymentMethods } from "@/lib/payment-methods/list-user-payment-methods";

// GET /api/v1/payment-methods?amount=...
export const GET = endpoint(
  op.listUserPaymentMethods,
  async ({ db, principal, query, headers }) => ({
    data: await listUserPaymentMethods(db, { principal, query, headers }),
    message: "Payment methods.",
  }),
);
