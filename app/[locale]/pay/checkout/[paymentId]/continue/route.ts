import { continueCheckoutForm } from "@/lib/hosted/checkout-form";
import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";

/**
 * POST /{locale}/pay/checkout/{paymentId}/continue (form: token, returnUrl, method, formToken): 303 to the
 * method's page.
 */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "checkout",
  credentialField: "token",
  act: ({ db, locale, params, fields }) => continueCheckoutForm({ db, locale, paymentId: params.paymentId, fields }),
});
