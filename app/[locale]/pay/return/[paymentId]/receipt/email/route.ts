import { hostedFormRoute } from "@/lib/hosted/hosted-form-route";
import { receiptEmailForm } from "@/lib/hosted/receipts/receipt-email-form";

/**
 * POST /{locale}/pay/return/{paymentId}/receipt/email (form: token, returnUrl, formToken, email): 303 back to
 * the return page.
 */
export const POST = hostedFormRoute<{ locale: string; paymentId: string }>({
  form: "receipt",
  credentialField: "token",
  act: ({ db, locale, params, fields }) => receiptEmailForm({ db, locale, paymentId: params.paymentId, fields }),
});
