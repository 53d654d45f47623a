import * as op from "@/lib/api/operations/customers";
import { toCustomerDetailView } from "@/lib/customers/customer-view";
import { getCustomerOrThrow } from "@/lib/customers/get-customer";
import { updateCustomer } from "@/lib/customers/update-customer";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/customers/:id
export const GET = endpoint(op.getCustomer, async ({ db, principal, params }) => {
  const customer = await getCustomerOrThrow(db, { id: params.id ?? "", serviceId: principal.service.id });
  return { data: toCustomerDetailView(customer), message: "Customer found." };
});

// PUT /api/v1/customers/:id
export const PUT = endpoint(op.updateCustomer, async ({ db, principal, params, body }) => {
  const customer = await updateCustomer(db, { id: params.id ?? "", serviceId: principal.service.id, changes: body });
  return { data: toCustomerDetailView(customer), message: "Customer updated." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PATCH, DELETE, OPTIONS } = otherMethods({ GET, PUT });
