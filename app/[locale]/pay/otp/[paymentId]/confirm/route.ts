import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { confirmOtpForm } from "@/lib/hosted/otp-forms";

/** POST /{locale}/pay/otp/{paymentId}/confirm (form: token, returnUrl, code, formToken): 303 to the next page. */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "otp",
  credentialField: "token",
  act: ({ db, locale, params, fields }) => confirmOtpForm({ db, locale, paymentId: params.paymentId, fields }),
});
