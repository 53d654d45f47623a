import { translator } from "@/lib/i18n/translator";
import type { Locale } from "@/lib/i18n/routing";
import { ButtonLink } from "./button";
import { StatusBanner } from "./status-banner";

/**
 * What an OTP or QR page shows once the payment ran out of time, with the way back to the
 * merchant when there is one.
 */
export function ExpiredNotice({
  locale,
  merchantName,
  target,
}: {
  locale: Locale;
  merchantName: string;
  target: string | null;
}) {
  const tOtp = translator(locale, "otp");
  const tReturn = translator(locale, "return");
  return (
    <div className="flex flex-col gap-4">
      <StatusBanner tone="warning">{tOtp("expiredBody", { merchant: merchantName })}</StatusBanner>
      {target ? <ButtonLink href={target}>{tReturn("continue", { merchant: merchantName })}</ButtonLink> : null}
    </div>
  );
}
