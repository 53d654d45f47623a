import * as op from "@/lib/api/operations/customers";
import { phonePathParam } from "@/lib/customers/customer.schema";
import { toCustomerDetailView } from "@/lib/customers/customer-view";
import { searchCustomerByPhone } from "@/lib/customers/search-customer";
import { ApiError } from "@/lib/errors/api-error";
import { endpoint } from "@/lib/http/endpoint";
import { zodDetails } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/customers/search/:phone
export const GET = endpoint(op.searchCustomer, async ({ db, principal, params }) => {
  const phone = phonePathParam.safeParse(params.phone ?? "");
  if (!phone.success) throw new ApiError("validation_error", "The phone is invalid.", zodDetails(phone.error, "phone"));
  const customer = await searchCustomerByPhone(db, { phone: phone.data, serviceId: principal.service.id });
  return { data: toCustomerDetailView(customer), message: "Customer found." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
