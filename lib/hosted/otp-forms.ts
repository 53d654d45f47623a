import type { Db } from "../db/client";
import { ApiError } from "../http/api-error";
import type { Locale } from "../i18n/routing";
import { logger } from "../log";
import { resendPaymentOtp } from "../payments/hosted/resend-payment-otp";
import { submitPaymentOtp } from "../payments/hosted/submit-payment-otp";
import { otpPageMode } from "./hosted-outcome";
import { otpPagePath, returnPagePath, type HostedLinkOptions } from "./hosted-paths";
import { loadHostedPayment } from "./load-hosted-payment";
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
  try {
    const result = await submitPaymentOtp(db, { paymentId, token: link.token, code: code.data });
    if (result.state === "REQUIRES_ACTION") return otpPagePath({ ...link, notice: "wrong_code" });
  } catch (error) {
    // A wrong token: the page itself shows the neutral "link not valid".
    if (isApiError(error, "invalid_credentials")) return otpPagePath(link);
    if (!isApiError(error, "invalid_state")) {
      logger.error({ err: error, paymentId }, "hosted OTP submission failed");
      return otpPagePath({ ...link, notice: "error" });
    }
    // Refused because of the state: either the code outlived its 5 minutes (the buyer asks
    // for a new one there) or the payment settled meanwhile (the return page tells how).
    if (await stillAwaitsCode(db, link)) return otpPagePath({ ...link, notice: "code_expired" });
  }
  return returnPagePath(link);
}

/** POST /{locale}/pay/otp/{id}/resend: a new code once the cooldown is over. */
export async function resendOtpForm({ db, locale, paymentId, fields }: OtpFormInput): Promise<string> {
  const link = linkOf({ locale, paymentId, fields });
  if (!link) return otpPagePath({ locale, paymentId, token: "" });
  try {
    await resendPaymentOtp(db, { paymentId, token: link.token });
    return otpPagePath({ ...link, notice: "sent" });
  } catch (error) {
    if (isApiError(error, "invalid_credentials")) return otpPagePath(link);
    // Past the intent's lifetime: the page shows the expiry. Inside the cooldown: it says so.
    if (isApiError(error, "intent_expired")) return otpPagePath(link);
    if (isApiError(error, "invalid_state")) return otpPagePath({ ...link, notice: (await stillAwaitsCode(db, link)) ? "too_soon" : undefined });
    logger.error({ err: error, paymentId }, "hosted OTP resend failed");
    return otpPagePath({ ...link, notice: "error" });
  }
}

function linkOf({ locale, paymentId, fields }: Omit<OtpFormInput, "db">): HostedLinkOptions | null {
  const parsed = hostedLinkForm.safeParse({ paymentId, locale, token: fields.token, returnUrl: fields.returnUrl });
  return parsed.success ? { locale, paymentId, token: parsed.data.token, returnUrl: parsed.data.returnUrl } : null;
}

async function stillAwaitsCode(db: Db, link: HostedLinkOptions): Promise<boolean> {
  const loaded = await loadHostedPayment(db, link);
  if (!loaded) return false;
  const { payment } = loaded;
  return otpPageMode({ state: payment.state, expired: payment.expired, hasOtp: payment.otp !== null }) === "enter_code";
}

function isApiError(error: unknown, name: ApiError["errorName"]): error is ApiError {
  return error instanceof ApiError && error.errorName === name;
}
