import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { submitPaymentLinkForm } from "@/lib/hosted/payment-link-form";

/**
 * POST /{locale}/l/{id}/pay (form: link, attempt, amount, phone, method, formToken): 303 to the payment's
 * next page.
 */
export const POST = hostedFormRoute<{ locale: string; id: string }>({
  form: "payment_link",
  credentialField: "link",
  act: ({ db, locale, params, fields, clientAddress }) =>
    fields.link === params.id
      ? submitPaymentLinkForm({ db, locale, linkId: params.id, fields, clientAddress })
      : Promise.resolve(`/${locale}/l/${encodeURIComponent(params.id)}`),
});
