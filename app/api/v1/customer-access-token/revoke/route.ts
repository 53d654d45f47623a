import * as op from "@/lib/api/operations/customers";
import { revokeCustomerToken } from "@/lib/customers/revoke-customer-token";
import { endpoint } from "@/lib/http/endpoint";

// DELETE /api/v1/customer-access-token/revoke
export const DELETE = endpoint(op.revokeCustomerToken, async ({ db, principal, body }) => {
  await revokeCustomerToken(db, { serviceId: principal.service.id, accessToken: body.accessToken });
  return { data: null, message: "Customer access token revoked." };
});
