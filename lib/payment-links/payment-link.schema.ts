import { z } from "zod";
import { pageLimit } from "../validation/page-limit";
import { routing } from "../i18n/routing";
import { amountProblemFor, amountSchema } from "../money/amount.schema";
import { toMinorUnits } from "../money/amount";
import { isSupportedCurrency } from "../money/currencies";
import { alpha3Schema } from "../validation/common-headers";

// Payment links API (contract 14): the request and response shapes of create, list, get and
// deactivate. Amounts travel in standard units (contract 2); lib/money converts them.

/** `plink_` + a ULID. */
const LINK_ID = /^plink_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isPaymentLinkId(value: unknown): value is string {
  return typeof value === "string" && LINK_ID.test(value);
}

export const paymentLinkId = z.string().regex(LINK_ID, "must be a payment link id (plink_ followed by 26 characters)");

const AMOUNT_FIELDS = ["amount", "minAmount", "maxAmount"] as const;

export const createPaymentLinkBody = z
  .object({
    title: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
    description: z.string().trim().max(500, "must be at most 500 characters").optional(),
    amount: amountSchema
      .optional()
      .meta({ description: "A fixed amount. Omit it to let the buyer enter one (within minAmount and maxAmount)." }),
    minAmount: amountSchema.optional().meta({ description: "The least a buyer may enter; only without `amount`." }),
    maxAmount: amountSchema.optional().meta({ description: "The most a buyer may enter; only without `amount`." }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as DZD")
      .refine(isSupportedCurrency, "is not a supported currency"),
    countryCode: alpha3Schema.meta({ description: "ISO 3166-1 alpha-3; must be enabled for the service." }),
    captureMethod: z.enum(["DIRECT", "RESERVATION"]).default("DIRECT"),
    reusable: z
      .boolean({ error: "must be true or false" })
      .default(true)
      .meta({ description: "false: the link closes after its first successful payment." }),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2030-01-31T18:00:00Z" })
      .optional()
      .meta({ description: "After this instant the link answers 410. Must be in the future." }),
    locale: z.enum(routing.locales, { error: "must be one of en, fr, ar" }).default("en").meta({
      description: "The link page's language when the buyer's browser asks for none of en, fr, ar.",
    }),
    metaData: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Copied into the metaData of every intent the link creates, beside `paymentLinkId`." }),
  })
  .superRefine((body, ctx) => {
    if (body.amount !== undefined) {
      for (const field of ["minAmount", "maxAmount"] as const) {
        if (body[field] !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: "must be omitted when amount is given (a fixed amount has no bounds)",
          });
      }
    }
    // The currency's decimals, once the currency is known to be valid (amountSchema reported the rest).
    if (!isSupportedCurrency(body.currency)) return;
    for (const field of AMOUNT_FIELDS) {
      const value = body[field];
      if (typeof value !== "number") continue;
      const problem = amountProblemFor(value, body.currency);
      if (problem) ctx.addIssue({ code: "custom", path: [field], message: problem });
    }
    const min = minorOrNull(body.minAmount, body.currency);
    const max = minorOrNull(body.maxAmount, body.currency);
    if (min !== null && max !== null && min > max)
      ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "must be at least minAmount" });
  });

function minorOrNull(value: number | undefined, currency: string): number | null {
  if (typeof value !== "number") return null;
  try {
    return toMinorUnits(value, currency);
  } catch {
    return null;
  }
}

export type CreatePaymentLinkBody = z.output<typeof createPaymentLinkBody>;

export const listPaymentLinksQuery = z.object({
  limit: pageLimit("Links"),
  startingAfter: paymentLinkId
    .optional()
    .meta({ description: "The last link id of the previous page: the next page starts after it." }),
});
export type ListPaymentLinksQuery = z.output<typeof listPaymentLinksQuery>;

export const paymentLinkView = z
  .object({
    id: z.string().meta({ description: "`plink_` followed by 26 characters." }),
    url: z.string().meta({ description: "The page to share: the buyer's language (Accept-Language), else `locale`." }),
    qrImageUrl: z.string().meta({ description: "A PNG QR code of `url`." }),
    title: z.string(),
    description: z.string().nullable(),
    amount: z.number().nullable().meta({ description: "The fixed amount; null when the buyer enters one." }),
    minAmount: z.number().nullable(),
    maxAmount: z.number().nullable(),
    currency: z.string().length(3),
    countryCode: z.string().length(3),
    captureMethod: z.enum(["DIRECT", "RESERVATION"]),
    reusable: z.boolean(),
    active: z.boolean().meta({
      description:
        "True while the link takes payments: not deactivated, not past `expiresAt`, and (single-use) not paid yet.",
    }),
    expiresAt: z.iso.datetime().nullable(),
    locale: z.enum(routing.locales),
    createdAt: z.iso.datetime(),
    paymentsCount: z
      .number()
      .int()
      .min(0)
      .meta({ description: "The link's payments that succeeded (captured), refunded since or not." }),
    succeededAmount: z
      .number()
      .min(0)
      .meta({ description: "What those payments took (the captured amount), before refunds, in standard units." }),
  })
  .meta({ id: "PaymentLink" });
export type PaymentLinkView = z.output<typeof paymentLinkView>;

export const listPaymentLinksResponse = z.array(paymentLinkView);
