import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { logger } from "../log";
import { requestOtpResend, attemptPaymentOtp } from "../payment-methods/registry/method-entry-points";
import { otpPagePath, returnPagePath, type HostedLinkOptions } from "../urls/hosted-urls";
import { hostedLinkForm, otpCode } from "./otp-form.schema";
import type { FormBody } from "./read-form-body";

// The OTP page's two forms, posted as plain HTML forms. Each answers with the page the buyer
// sees next: the return page once the payment settled, else the OTP page with a notice.
// The code itself is never logged, returned or put in a URL.

interface OtpFormInput {
  db: Db;
  locale: Locale;
  paymentId: string;
  fields: FormBody;
}

/** POST /{locale}/pay/otp/{id}/confirm: check the code. */
export async function confirmOtpForm({ db, locale, paymentId, fields }: OtpFormInput): Promise<string> {
  const link = linkOf({ locale, paymentId, fields });
  if (!link) return otpPagePath({ locale, paymentId, token: "" });
  const code = otpCode.safeParse(fields.code ?? "");
  if (!code.success) return otpPagePath({ ...link, notice: "code_format" });
  const attempt = await attemptPaymentOtp(db, { paymentId, token: link.token, code: code.data }).catch(
    (error: unknown) => {
      logger.error({ err: error, paymentId }, "hosted OTP submission failed");
      return null;
    },
  );
  switch (attempt?.outcome) {
    case undefined:
      return otpPagePath({ ...link, notice: "error" });
    // A wrong token: the page itself shows the neutral "link not valid".
    case "invalid_link":
      return otpPagePath(link);
    case "answered":
      return attempt.submission.state === "REQUIRES_ACTION"
        ? otpPagePath({ ...link, notice: "wrong_code" })
        : returnPagePath(link);
    // The code outlived its 5 minutes: the buyer asks for a new one there.
    case "code_expired":
      return otpPagePath({ ...link, notice: "code_expired" });
    // Settled meanwhile: the return page tells how.
    case "not_awaiting_code":
      return returnPagePath(link);
  }
}

/** POST /{locale}/pay/otp/{id}/resend: a new code once the cooldown is over. */
export async function resendOtpForm({ db, locale, paymentId, fields }: OtpFormInput): Promise<string> {
  const link = linkOf({ locale, paymentId, fields });
  if (!link) return otpPagePath({ locale, paymentId, token: "" });
  const resend = await requestOtpResend(db, { paymentId, token: link.token }).catch((error: unknown) => {
    logger.error({ err: error, paymentId }, "hosted OTP resend failed");
    return null;
  });
  switch (resend?.outcome) {
    case undefined:
      return otpPagePath({ ...link, notice: "error" });
    case "sent":
      return otpPagePath({ ...link, notice: "sent" });
    case "too_soon":
      return otpPagePath({ ...link, notice: "too_soon" });
    // A wrong token, past the intent's lifetime (the page shows the expiry) or settled meanwhile:
    // the page itself shows where the payment stands.
    case "invalid_link":
    case "intent_expired":
    case "not_awaiting_code":
      return otpPagePath(link);
  }
}

function linkOf({ locale, paymentId, fields }: Omit<OtpFormInput, "db">): HostedLinkOptions | null {
  const parsed = hostedLinkForm.safeParse({ paymentId, locale, token: fields.token, returnUrl: fields.returnUrl });
  return parsed.success ? { locale, paymentId, token: parsed.data.token, returnUrl: parsed.data.returnUrl } : null;
}
