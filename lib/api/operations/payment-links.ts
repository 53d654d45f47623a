import { z } from "zod";
import {
  createPaymentLinkBody,
  listPaymentLinksQuery,
  listPaymentLinksResponse,
  paymentLinkView,
} from "../../payment-links/payment-link.schema";
import { defineOperation } from "./operation";

const tag = "Payment links";

export const createPaymentLink = defineOperation({
  method: "POST",
  path: "/api/v1/payment-links",
  operationId: "createPaymentLink",
  tag,
  summary: "Create a payment link",
  description:
    "A page to share (`url`, and `qrImageUrl` a PNG QR code of it) where a buyer enters a phone number, " +
    "chooses how to pay and presses Continue: each buyer's payment is an ordinary intent whose " +
    "`metaData.paymentLinkId` is the link's id, and its notifications carry `paymentLinkId`. " +
    "Give `amount` for a fixed price, or omit it and optionally bound what the buyer enters with " +
    "`minAmount` and `maxAmount`. `reusable: false` closes the link after its first successful payment. " +
    "A deactivated, expired or used-up link answers 410.",
  auth: ["client"],
  body: createPaymentLinkBody,
  status: 201,
  response: paymentLinkView,
});

export const listPaymentLinks = defineOperation({
  method: "GET",
  path: "/api/v1/payment-links",
  operationId: "listPaymentLinks",
  tag,
  summary: "The service's payment links, newest first",
  description: "Page with `startingAfter` (the last id you got) while `hasMore` is true.",
  auth: ["client"],
  query: listPaymentLinksQuery,
  response: listPaymentLinksResponse,
  envelopeFields: {
    hasMore: z.boolean().meta({ description: "True when older links remain: ask again with `startingAfter`." }),
  },
});

export const getPaymentLink = defineOperation({
  method: "GET",
  path: "/api/v1/payment-links/:id",
  operationId: "getPaymentLink",
  tag,
  summary: "One payment link, with its payments count and succeeded total",
  description: "Another service's link is 404.",
  auth: ["client"],
  response: paymentLinkView,
  errors: ["not_found"],
});

export const deactivatePaymentLink = defineOperation({
  method: "POST",
  path: "/api/v1/payment-links/:id/deactivate",
  operationId: "deactivatePaymentLink",
  tag,
  summary: "Stop a payment link taking payments",
  description:
    "Answers the link with `active: false`; its page answers 410 from now on. Payments already made stand. " +
    "Another service's link is 404.",
  auth: ["client"],
  response: paymentLinkView,
  errors: ["not_found"],
});
