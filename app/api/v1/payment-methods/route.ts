import * as op from "@/lib/api/operations/payment-methods";
import { endpoint } from "@/lib/http/endpoint";
import { listUserPaymentMethods } from "@/lib/payment-methods/list-user-payment-methods";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/payment-methods?amount=...
export const GET = endpoint(op.listUserPaymentMethods, async ({ db, principal, query, headers }) => ({
  data: await listUserPaymentMethods(db, { principal, query, headers }),
  message: "Payment methods.",
}));

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
