import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { resendOtpForm } from "@/lib/hosted/otp-forms";

/** POST /{locale}/pay/otp/{paymentId}/resend (form: token, returnUrl, formToken): 303 back to the OTP page. */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "otp",
  credentialField: "token",
  act: ({ db, locale, params, fields }) => resendOtpForm({ db, locale, paymentId: params.paymentId, fields }),
});
