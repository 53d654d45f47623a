import { z } from "zod";
import { routing } from "../i18n/routing";
import { toAsciiDigits } from "../validation/native-digits";

/** What every hosted-page form posts back: which payment, its page token, where to return. */
export const hostedLinkForm = z.object({
  paymentId: z.uuid(),
  token: z.string().min(1).max(256),
  locale: z.enum(routing.locales),
  // Carried through untouched; resolveReturnTarget decides later whether it may be used.
  returnUrl: z
    .string()
    .max(2048)
    .optional()
    .transform((value) => value || undefined),
});

export type HostedLinkForm = z.output<typeof hostedLinkForm>;

/** The code as the wallet expects it: ASCII digits, spaces and dashes from copy-paste removed. */
export function normalizeOtpCode(raw: string): string {
  return toAsciiDigits(raw).replace(/[\s\-\u00A0\u202F]/g, "");
}

/** A code that cannot be right is refused here, so a typo never costs the buyer an attempt. */
export const otpCode = z
  .string()
  .transform(normalizeOtpCode)
  .pipe(z.string().regex(/^\d{4,8}$/));
