import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { payWithRedirect } from "../payments/hosted/redirect-payment";
import { redirectPagePath, returnPagePath } from "../urls/hosted-urls";
import { hostedLinkForm } from "./otp-form.schema";
import type { FormBody } from "./read-form-body";

/**
 * The checks the page before SATIM's asks of the buyer before the order is registered: the
 * terms of payment checkbox and the anti-bot check (contract 15). Built by another change
 * (receipts, terms and anti-bot): it plugs in here and in the page's marked slot; until then
 * every post passes.
 */
export function buyerChecksPassed(_fields: FormBody): boolean {
  return true;
}

/**
 * POST /{locale}/pay/redirect/{id}/go (form: token, returnUrl, formToken): registers the order
 * with the provider and sends the buyer to the provider's page (a 303 to its formUrl), else back
 * to the page with what went wrong, or to the return page for a payment that no longer waits.
 */
export async function payRedirectForm({ db, locale, paymentId, fields }: { db: Db; locale: Locale; paymentId: string; fields: FormBody }): Promise<string> {
  const parsed = hostedLinkForm.safeParse({ paymentId, locale, token: fields.token, returnUrl: fields.returnUrl });
  if (!parsed.success) return redirectPagePath({ locale, paymentId, token: "" });
  const link = { locale, paymentId, token: parsed.data.token, returnUrl: parsed.data.returnUrl };
  if (!buyerChecksPassed(fields)) return redirectPagePath({ ...link, notice: "checks_failed" });
  const started = await payWithRedirect(db, { paymentId, token: link.token, locale });
  switch (started.kind) {
    case "go":
      return started.formUrl;
    case "not_waiting":
      return returnPagePath(link);
    case "unavailable":
      return redirectPagePath({ ...link, notice: "provider_unavailable" });
    case "refused":
      return redirectPagePath({ ...link, notice: "provider_refused" });
    case "invalid_link":
      return redirectPagePath({ ...link, token: "" });
  }
}
