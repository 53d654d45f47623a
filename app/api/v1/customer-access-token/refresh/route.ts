import * as op from "@/lib/api/operations/customers";
import { serviceClock } from "@/lib/clock";
import { refreshCustomerToken } from "@/lib/customers/refresh-customer-token";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/customer-access-token/refresh
export const POST = endpoint(op.refreshCustomerToken, async ({ db, principal, body }) => {
  const pair = await refreshCustomerToken(db, {
    serviceId: principal.service.id,
    refreshToken: body.refreshToken,
    accessToken: body.accessToken,
    clock: serviceClock(principal.service),
  });
  return { data: pair, message: "Customer access token refreshed." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
