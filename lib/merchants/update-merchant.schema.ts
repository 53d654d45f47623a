import { z } from "zod";
import { canonicalTimeZone } from "./merchant-time-zone";
import { httpUrl, originEntry } from "./onboard-merchant.schema";

/** An IANA time zone this server knows, stored by its canonical name ("africa/tunis" -> "Africa/Tunis"). */
export const TIME_ZONE_RULE = "must be an IANA time zone name, such as Africa/Algiers";
const timeZoneName = z
  .string()
  .transform(
    (name, ctx) =>
      canonicalTimeZone(name) ?? (ctx.addIssue({ code: "custom", message: TIME_ZONE_RULE, input: name }), z.NEVER),
  );
/** The merchant's terms of payment: a buyer opens it from the hosted page, so https only. */
export const termsUrl = z
  .url({ protocol: /^https$/, message: "must be an https URL" })
  .max(2048, "must be at most 2048 characters");

/** `npm run merchant -- update`: what can change on an existing service. Lists replace the old ones. */
export const updateMerchantInput = z
  .object({
    clientId: z.string().min(1, "names the merchant to update"),
    name: z.string().trim().min(1, "must not be empty").max(120).optional(),
    countries: z
      .array(z.string().regex(/^[A-Z]{3}$/, "must be an ISO 3166-1 alpha-3 code such as DZA"))
      .min(1, "at least one country is required")
      .transform((codes) => [...new Set(codes)])
      .optional(),
    redirectUrl: httpUrl.nullable().optional(),
    webhookUrl: httpUrl.nullable().optional(),
    origins: z.array(originEntry).optional(),
    /** The console's time zone; null: the first country's again. */
    timeZone: timeZoneName.nullable().optional(),
    termsUrl: termsUrl.nullable().optional(),
    rotateWebhookSecret: z.boolean().default(false),
  })
  .refine(
    (input) =>
      Object.entries(input).some(
        ([key, value]) => key !== "clientId" && key !== "rotateWebhookSecret" && value !== undefined,
      ) || input.rotateWebhookSecret,
    "nothing to update: give at least one of --name, --country, --redirect-url, --webhook-url, --origin, " +
      "--time-zone, --terms-url, --rotate-webhook-secret",
  );

export type UpdateMerchantInput = z.input<typeof updateMerchantInput>;

/** What `update` prints: the service as it now is; `webhookSecret` only when a new one was made. */
export interface UpdatedMerchant {
  name: string;
  service: string;
  clientId: string;
  countries: string[];
  redirectUrl: string | null;
  webhookUrl: string | null;
  origins: string[];
  /** The zone the console shows times in: the one set, or the first country's. */
  timeZone: string;
  termsUrl: string | null;
  webhookSecret?: string;
}
