import { z } from "zod";

const httpUrl = z.url({ protocol: /^https?$/, message: "must be an http(s) URL" });

export const onboardMerchantInput = z.object({
  name: z.string().trim().min(1, "is required").max(120),
  countries: z
    .array(z.string().regex(/^[A-Z]{3}$/, "must be an ISO 3166-1 alpha-3 code such as DZA"))
    .min(1, "at least one country is required")
    .transform((codes) => [...new Set(codes)]),
  redirectUrl: httpUrl.optional(),
  webhookUrl: httpUrl.optional(),
  origins: z.array(httpUrl).default([]),
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
