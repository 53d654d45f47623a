import { z } from "zod";
import { alpha3Schema } from "../../validation/common-headers";
import { phoneSchema } from "../../customers/customer.schema";
import { amountProblemFor, amountSchema } from "../../money/amount.schema";
import { isSupportedCurrency } from "../../money/currencies";

export const createPaymentIntentQuery = z.object({ countryCode: alpha3Schema });

export const createPaymentIntentBody = z
  .object({
    actionId: z.string().trim().min(1).max(255),
    amount: amountSchema,
    actionCurrencyCode: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as DZD")
      .refine(isSupportedCurrency, "is not a supported currency"),
    actionCountryCode: alpha3Schema,
    userId: phoneSchema,
    captureMethod: z.enum(["DIRECT", "RESERVATION"]).default("DIRECT"),
    transactionType: z.enum(["QR_CODE"]).nullish(),
    metaData: z.record(z.string(), z.unknown()).nullish(),
  })
  .superRefine((body, ctx) => {
    // The currency-specific decimals rule, once the currency itself is known to be valid.
    // Runs even when other fields failed: it reports only what amountSchema did not.
    if (typeof body.amount !== "number" || !isSupportedCurrency(body.actionCurrencyCode)) return;
    const problem = amountProblemFor(body.amount, body.actionCurrencyCode);
    if (problem) ctx.addIssue({ code: "custom", path: ["amount"], message: problem });
  });

export type CreatePaymentIntentBody = z.output<typeof createPaymentIntentBody>;
export type CreatePaymentIntentQuery = z.output<typeof createPaymentIntentQuery>;
