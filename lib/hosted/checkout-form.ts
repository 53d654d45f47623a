import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { proceedFromCheckout } from "../payments/hosted/proceed-from-checkout";
import { checkoutPagePath } from "../urls/hosted-urls";
import { checkoutOutcomePath } from "./checkout-next-page";
import { hostedLinkForm } from "./otp-form.schema";
import type { FormBody } from "./read-form-body";

/**
 * POST /{locale}/pay/checkout/{id}/continue (form: token, returnUrl, method, formToken): the
 * payment proceeds with the method chosen and the buyer goes on to its page; anything else
 * goes back to the checkout page, which shows the notice or where the payment now stands.
 */
export async function continueCheckoutForm({
  db,
  locale,
  paymentId,
  fields,
}: {
  db: Db;
  locale: Locale;
  paymentId: string;
  fields: FormBody;
}): Promise<string> {
  const parsed = hostedLinkForm.safeParse({ paymentId, locale, token: fields.token, returnUrl: fields.returnUrl });
  if (!parsed.success) return checkoutPagePath({ locale, paymentId, token: "" });
  const link = { locale, paymentId, token: parsed.data.token, returnUrl: parsed.data.returnUrl };
  const result = await proceedFromCheckout(db, {
    paymentId,
    token: link.token,
    code: fields.method || undefined,
    locale,
    returnUrl: link.returnUrl,
  });
  return checkoutOutcomePath(result, link);
}
