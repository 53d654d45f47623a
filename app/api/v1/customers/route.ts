import * as op from "@/lib/api/operations/customers";
import { createCustomer } from "@/lib/customers/create-customer";
import { toCustomerView } from "@/lib/customers/customer-view";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/customers
export const POST = endpoint(op.createCustomer, async ({ db, principal, body }) => {
  const customer = await createCustomer(db, { serviceId: principal.service.id, input: body });
  return { data: toCustomerView(customer), message: "Customer created." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
