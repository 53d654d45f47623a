import { z } from "zod";

export const httpUrl = z.url({ protocol: /^https?$/, message: "must be an http(s) URL" });

/** An allow-listed origin: an http(s) URL (its origin is kept), or `http://localhost:*` style for any port. */
export const originEntry = z.union([z.string().regex(/^https?:\/\/[^/:]+:\*$/), httpUrl], {
  error: "must be an http(s) origin such as https://shop.example, or http://localhost:* for any port",
});

export const onboardMerchantInput = z.object({
  name: z.string().trim().min(1, "is required").max(120),
  countries: z
    .array(z.string().regex(/^[A-Z]{3}$/, "must be an ISO 3166-1 alpha-3 code such as DZA"))
    .min(1, "at least one country is required")
    .transform((codes) => [...new Set(codes)]),
  redirectUrl: httpUrl.optional(),
  webhookUrl: httpUrl.optional(),
  origins: z.array(originEntry).default([]),
  /** Production: the real card provider's publishable key for this service. */
  cardProviderPublishableKey: z.string().min(1).optional(),
});

export type OnboardMerchantInput = z.input<typeof onboardMerchantInput>;

/** What onboarding prints once (contract section 9); secrets are never shown again. */
export interface OnboardedMerchant {
  name: string;
  tenant: string;
  service: string;
  clientId: string;
  clientSecret: string;
  publishableKey: string;
  webhookSecret: string;
  cardProviderPublishableKey: string;
}
