import type { Db } from "../db/client";
import { findPayment } from "../db/payment-record";
import type { Locale } from "../i18n/routing";
import { paymentMethodOf } from "../payment-methods/registry/payment-method-registry";
import { payWithRedirect } from "../payments/hosted/redirect-payment";
import { redirectPagePath, returnPagePath, type RedirectNotice } from "../urls/hosted-urls";
import { verifyAntiBot } from "./anti-bot/anti-bot-check";
import { hostedLinkForm } from "./otp-form.schema";
import { termsAccepted } from "./payment-terms";
import type { FormBody } from "./read-form-body";

/** Whether the payment's method asks the buyer's checks on the page before its provider's (SATIM's checklist). */
export function asksBuyerChecks(methodCode: string | null): boolean {
  return paymentMethodOf(methodCode)?.redirect?.checkout?.buyerChecks === true;
}

/**
 * The checks the page before SATIM's asks of the buyer before the order is registered
 * (contract 15, SATIM's checklist): the terms of payment ticked and the anti-bot check passed,
 * decided here on the server whatever the browser did. Answers null when the post may go on,
 * else the notice that puts the message beside the field that failed. Both are judged (the
 * anti-bot answer is spent either way: the page comes back with a fresh one).
 */
export async function buyerChecksPassed(db: Db, fields: FormBody): Promise<RedirectNotice | null> {
  const antiBot = await verifyAntiBot(db, fields);
  const terms = termsAccepted(fields);
  if (antiBot.passed) return terms ? null : "terms_required";
  if (!terms) return "checks_failed";
  return antiBot.reason === "expired" ? "anti_bot_expired" : "anti_bot_failed";
}

/**
 * POST /{locale}/pay/redirect/{id}/go (form: token, returnUrl, formToken): registers the order
 * with the provider and sends the buyer to the provider's page (a 303 to its formUrl), else back
 * to the page with what went wrong, or to the return page for a payment that no longer waits.
 */
export async function payRedirectForm({
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
  if (!parsed.success) return redirectPagePath({ locale, paymentId, token: "" });
  const link = { locale, paymentId, token: parsed.data.token, returnUrl: parsed.data.returnUrl };
  // Checked before anything is asked of the provider: a refused post registers nothing.
  const payment = await findPayment(db, paymentId);
  if (payment && asksBuyerChecks(payment.paymentMethodCode)) {
    const refused = await buyerChecksPassed(db, fields);
    if (refused) return redirectPagePath({ ...link, notice: refused });
  }
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
