import { z } from "zod";
import { alpha3Schema, platformHeader } from "../validation/common-headers";

/** GET /api/v1/cards */
export const listSavedCardsQuery = z.object({ pmCode: z.string().trim().min(1).max(64).optional() });
export const listSavedCardsHeaders = z.object({
  "x-platform": platformHeader,
});

/** DELETE /api/v1/cards/:id */
export const deleteSavedCardHeaders = z.object({ "x-country-code": alpha3Schema });
