import { translator } from "@/lib/i18n/translator";
import { Button } from "@/components/button";
import { Field } from "@/components/field";
import { StatusBanner } from "@/components/status-banner";
import { FORM_TOKEN_FIELD } from "@/lib/hosted/hosted-form-route";
import { otpFormPath, type OtpNotice } from "@/lib/urls/hosted-urls";
import type { Locale } from "@/lib/i18n/routing";
import { ResendButton } from "./resend-button";

export interface OtpFormProps {
  paymentId: string;
  token: string;
  locale: Locale;
  returnUrl?: string;
  /** The per-page CSRF token both forms post back. */
  formToken: string;
  /** Seconds until a new code may be asked for, on the payment's own clock. */
  resendInSeconds: number;
  codeExpired: boolean;
  attemptsLeft: number;
  /** What the last post of one of these forms came to (the 303 put it in the query). */
  notice: OtpNotice | null;
}

/**
 * The OTP page's two forms, plain HTML posts that work before the page's script has run and
 * without it. Only the resend countdown is an island (components/islands/resend-countdown.ts).
 */
export function OtpForm({
  paymentId,
  token,
  locale,
  returnUrl,
  formToken,
  resendInSeconds,
  codeExpired,
  attemptsLeft,
  notice,
}: OtpFormProps) {
  const t = translator(locale, "otp");
  const hidden = (
    <>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
      {returnUrl ? <input type="hidden" name="returnUrl" value={returnUrl} /> : null}
    </>
  );

  const codeError =
    notice === "wrong_code"
      ? t("wrongCode", { attemptsLeft })
      : notice === "code_format"
        ? t("codeFormat")
        : // The code outlived its 5 minutes, unless a new one was sent since.
          notice === "code_expired" && codeExpired
          ? t("codeExpired")
          : null;

  return (
    <div className="flex flex-col gap-5">
      {notice === "error" ? (
        <StatusBanner tone="error" role="alert">
          {t("error")}
        </StatusBanner>
      ) : null}
      {codeExpired && notice !== "code_expired" ? <StatusBanner tone="warning">{t("codeExpired")}</StatusBanner> : null}

      <form
        method="post"
        action={otpFormPath({ locale, paymentId }, "confirm")}
        noValidate
        className="flex flex-col gap-4"
      >
        {hidden}
        <Field
          id="otp-code"
          name="code"
          label={t("codeLabel")}
          hint={t("codeHint")}
          error={codeError}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          enterKeyHint="done"
          maxLength={12}
          spellCheck={false}
          autoCorrect="off"
          autoCapitalize="off"
          // After a refused code or a new one sent, the buyer is put back in the field.
          autoFocus={
            notice === "wrong_code" || notice === "code_format" || notice === "code_expired" || notice === "sent"
          }
          // Digits read left to right in every language.
          dir="ltr"
          className="text-center font-mono text-2xl tracking-[0.35em]"
        />
        <Button type="submit">{t("confirm")}</Button>
      </form>

      <form
        method="post"
        action={otpFormPath({ locale, paymentId }, "resend")}
        className="border-t border-slate-200 pt-5"
      >
        {hidden}
        {/* Always in the document, so screen readers hear what is put into it. */}
        <div role="status">
          {notice === "sent" ? (
            <div className="mb-3">
              <StatusBanner tone="success">{t("resent")}</StatusBanner>
            </div>
          ) : notice === "too_soon" ? (
            <div className="mb-3">
              <StatusBanner tone="warning">{t("resendTooSoon")}</StatusBanner>
            </div>
          ) : null}
        </div>
        <ResendButton
          label={t("resend")}
          // Index n: the help text with n seconds left (0: a new code may be asked for).
          helpBySecondsLeft={Array.from({ length: resendInSeconds + 1 }, (_, seconds) =>
            seconds === 0 ? t("resendAvailable") : t("resendIn", { seconds }),
          )}
        />
      </form>
    </div>
  );
}
