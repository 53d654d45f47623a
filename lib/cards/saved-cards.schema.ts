import { z } from "zod";
import { alpha3Schema } from "../payments/create-payment-intent.schema";
import { PLATFORMS } from "../payments/proceed-payment.schema";

/** GET /api/v1/cards */
export const listSavedCardsQuery = z.object({ pmCode: z.string().trim().min(1).max(64).optional() });
export const listSavedCardsHeaders = z.object({
  "x-platform": z.enum(PLATFORMS, { error: "must be one of API, WEB, ANDROID, IOS" }),
});

/** DELETE /api/v1/cards/:id */
export const deleteSavedCardHeaders = z.object({ "x-country-code": alpha3Schema });
