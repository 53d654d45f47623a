import * as op from "@/lib/api/operations/customers";
import { serviceClock } from "@/lib/clock";
import { generateCustomerToken } from "@/lib/customers/generate-customer-token";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/customer-access-token
export const POST = endpoint(op.generateCustomerToken, async ({ db, principal, body }) => {
  const pair = await generateCustomerToken(db, {
    serviceId: principal.service.id,
    customerId: body.customerId,
    clock: serviceClock(principal.service),
  });
  return { data: pair, message: "Customer access token created." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
