import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { payRedirectForm } from "@/lib/hosted/redirect-form";

/** POST /{locale}/pay/redirect/{paymentId}/go (form: token, returnUrl, formToken): 303 to the provider's page. */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "redirect",
  credentialField: "token",
  act: ({ db, locale, params, fields }) => payRedirectForm({ db, locale, paymentId: params.paymentId, fields }),
});
