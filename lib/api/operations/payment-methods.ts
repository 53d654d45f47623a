import { z } from "zod";
import { deleteSavedCardHeaders, listSavedCardsHeaders, listSavedCardsQuery } from "../../cards/saved-cards.schema";
import { savedCardView } from "../../cards/saved-card-view";
import { paymentMethodItem, userPaymentMethodItem } from "../../payment-methods/payment-method-views";
import {
  availableMethodsHeaders,
  availableMethodsQuery,
  cardProviderKeyHeaders,
  cardProviderKeyView,
  userMethodsHeaders,
  userMethodsQuery,
} from "../../payment-methods/payment-methods.schema";
import { defineOperation } from "./operation";

const tag = "Payment methods";

export const listAvailablePaymentMethods = defineOperation({
  method: "GET",
  path: "/api/v1/payment-methods/available",
  operationId: "listAvailablePaymentMethods",
  tag,
  summary: "Methods the service offers in a country",
  description:
    "`countryCode` is ISO 3166-1 **alpha-2** here (`DZ`), unlike create intent and the `x-country-code` " +
    "header, which take alpha-3 (`DZA`). Saved cards are not listed.",
  auth: ["client"],
  query: availableMethodsQuery,
  headers: availableMethodsHeaders,
  response: z.array(paymentMethodItem),
});

export const listUserPaymentMethods = defineOperation({
  method: "GET",
  path: "/api/v1/payment-methods",
  operationId: "listUserPaymentMethods",
  tag,
  summary: "Methods for one buyer (wallet balance and saved cards)",
  description:
    "Under user_auth, `amount` (> 0) and `x-country-code` (alpha-3) and `x-service` are required. " +
    "Under merchant_auth the amount, currency and country come from the intent: " +
    "values sent are ignored without error, and `x-service` is ignored.",
  auth: ["merchant", "user"],
  requireServiceHeader: true,
  query: userMethodsQuery,
  headers: userMethodsHeaders,
  response: z.array(userPaymentMethodItem),
});

export const getCardProviderKey = defineOperation({
  method: "GET",
  path: "/api/v1/payment-methods/card-provider/pk",
  operationId: "getCardProviderPublishableKey",
  tag,
  summary: "The card provider's publishable key",
  description:
    "client_auth and user_auth name the country in `x-country-code` (alpha-3) and need `x-service`; " +
    "merchant_auth takes both from the intent. 404 when the service offers no card payments in that country.",
  auth: ["client", "user", "merchant"],
  requireServiceHeader: true,
  headers: cardProviderKeyHeaders,
  response: cardProviderKeyView,
  errors: ["not_found"],
});

export const listSavedCards = defineOperation({
  method: "GET",
  path: "/api/v1/cards",
  operationId: "listSavedCards",
  tag: "Saved cards",
  summary: "The signed-in customer's saved cards",
  description: "Most recently used first, then most recently saved; render in the order received.",
  auth: ["user"],
  requireServiceHeader: true,
  query: listSavedCardsQuery,
  headers: listSavedCardsHeaders,
  response: z.array(savedCardView),
});

export const deleteSavedCard = defineOperation({
  method: "DELETE",
  path: "/api/v1/cards/:id",
  operationId: "deleteSavedCard",
  tag: "Saved cards",
  summary: "Delete a saved card",
  auth: ["user"],
  headers: deleteSavedCardHeaders,
  response: z.null(),
  errors: ["not_found"],
});
