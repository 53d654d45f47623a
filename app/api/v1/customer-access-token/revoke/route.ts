import * as op from "@/lib/api/operations/customers";
import { revokeCustomerToken } from "@/lib/customers/revoke-customer-token";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";

// DELETE /api/v1/customer-access-token/revoke
export const DELETE = endpoint(op.revokeCustomerToken, async ({ db, principal, body }) => {
  await revokeCustomerToken(db, { serviceId: principal.service.id, accessToken: body.accessToken });
  return { data: null, message: "Customer access token revoked." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
