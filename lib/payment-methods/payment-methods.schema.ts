import { z } from "zod";
import { alpha3Of } from "../geo/countries";
import { alpha3Schema, platformHeader } from "../validation/common-headers";

const localeHeader = z.string().trim().min(1).max(35).optional();

/** GET /api/v1/payment-methods/available */
export const availableMethodsQuery = z.object({
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as DZ")
    .transform((code) => code.toUpperCase())
    .refine((code) => alpha3Of(code) !== null, "is not an ISO 3166-1 alpha-2 code"),
});
export const availableMethodsHeaders = z.object({ "x-locale": localeHeader });

/**
 * GET /api/v1/payment-methods. Query values are read per auth mode by the domain: under
 * merchant_auth the amount comes from the intent and whatever was sent is ignored, so a
 * malformed value there must not fail the request either.
 */
export const userMethodsQuery = z.object({
  amount: z.string().optional(),
  actionCurrencyCode: z.string().optional(),
  actionCountryCode: z.string().optional(),
});
export const userMethodsHeaders = z.object({
  "x-platform": platformHeader,
  "x-locale": localeHeader,
  "x-country-code": z.string().optional(),
});

/** Under user_auth: an amount above zero, and the country the buyer pays in (alpha-3). */
export const userContextInput = z.object({
  amount: z.coerce
    .number({ error: "must be a number" })
    .refine(Number.isFinite, "must be a number")
    .refine((value) => value > 0, "must be greater than zero"),
  country: alpha3Schema,
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as DZD")
    .optional(),
});

/** GET /api/v1/payment-methods/card-provider/pk: the response. */
export const cardProviderKeyView = z.object({
  publicKey: z.string().meta({ description: "The card provider's publishable key for client-side card entry." }),
});

/** GET /api/v1/payment-methods/card-provider/pk */
export const cardProviderKeyHeaders = z.object({ "x-country-code": z.string().optional() });
