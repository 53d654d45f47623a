import { z } from "zod";
import {
  generateCustomerTokenBody,
  refreshCustomerTokenBody,
  revokeCustomerTokenBody,
  tokenPairView,
} from "../../customers/customer-token.schema";
import {
  createCustomerBody,
  customerDetailView,
  customerView,
  updateCustomerBody,
} from "../../customers/customer.schema";
import { defineOperation } from "./operation";

const tag = "Customers";

export const createCustomer = defineOperation({
  method: "POST",
  path: "/api/v1/customers",
  operationId: "createCustomer",
  tag,
  summary: "Register a customer",
  description:
    "Optional: creating a payment intent with an unknown `userId` (phone) registers the customer too. " +
    "A second customer with the same phone in the same service is 409 `customer_exists`, safe to ignore.",
  auth: ["client"],
  body: createCustomerBody,
  status: 201,
  response: customerView,
  errors: ["customer_exists"],
});

export const getCustomer = defineOperation({
  method: "GET",
  path: "/api/v1/customers/:id",
  operationId: "getCustomer",
  tag,
  summary: "Get a customer",
  auth: ["client"],
  response: customerDetailView,
  errors: ["not_found"],
});

export const updateCustomer = defineOperation({
  method: "PUT",
  path: "/api/v1/customers/:id",
  operationId: "updateCustomer",
  tag,
  summary: "Update a customer",
  description:
    "Every field is optional; `email: null` clears the address and `isActive: false` deactivates the customer.",
  auth: ["client"],
  body: updateCustomerBody,
  response: customerDetailView,
  errors: ["not_found", "customer_exists"],
});

export const searchCustomer = defineOperation({
  method: "GET",
  path: "/api/v1/customers/search/:phone",
  operationId: "searchCustomerByPhone",
  tag,
  summary: "Find a customer by phone",
  description: "The phone is E.164; send the `+` as `%2B` (a raw `+` or a form-encoded space are accepted too).",
  auth: ["client"],
  response: customerDetailView,
  errors: ["validation_error", "not_found"],
});

export const generateCustomerToken = defineOperation({
  method: "POST",
  path: "/api/v1/customer-access-token",
  operationId: "createCustomerAccessToken",
  tag,
  summary: "Create a customer access token pair",
  description: "Starts a token family for user_auth. The access token lives 15 minutes, the refresh token 30 days.",
  auth: ["client"],
  body: generateCustomerTokenBody,
  status: 201,
  response: tokenPairView,
  errors: ["not_found"],
});

export const refreshCustomerToken = defineOperation({
  method: "POST",
  path: "/api/v1/customer-access-token/refresh",
  operationId: "refreshCustomerAccessToken",
  tag,
  summary: "Rotate a customer token pair",
  description:
    "Answers a new pair; the old pair stops working. Presenting a refresh token that was already rotated " +
    "revokes every token of its family (RFC 9700) and answers 401.",
  auth: ["client"],
  body: refreshCustomerTokenBody,
  response: tokenPairView,
});

export const revokeCustomerToken = defineOperation({
  method: "DELETE",
  path: "/api/v1/customer-access-token/revoke",
  operationId: "revokeCustomerAccessToken",
  tag,
  summary: "Revoke a customer token pair",
  description: "The access token and its refresh token stop working at once. `data` is null.",
  auth: ["client"],
  body: revokeCustomerTokenBody,
  response: z.null(),
});
