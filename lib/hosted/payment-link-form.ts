import type { Db } from "../db/client";
import type { Locale } from "../i18n/routing";
import { logger } from "../log";
import { rateLimitKeys, rateLimitPolicies, type RateLimitCheck } from "../rate-limit/policies";
import { consumeRateLimits } from "../rate-limit/store";
import { metrics } from "../metrics/gateway-metrics";
import { startLinkPayment, type LinkPaymentStart } from "../payment-links/start-link-payment";
import { proceedFromCheckout } from "../payments/hosted/proceed-from-checkout";
import { paymentLinkClosedPath, paymentLinkPagePath } from "../urls/payment-link-urls";
import { checkoutOutcomePath } from "./checkout-next-page";
import type { FormBody } from "./read-form-body";

/**
 * POST /{locale}/l/{linkId}/pay (form: link, attempt, amount, phone, method, formToken): creates the
 * buyer's intent (startLinkPayment) and goes on exactly as the checkout page's Continue does;
 * a refused entry goes back to the link page with what was entered and what to fix.
 */
export async function submitPaymentLinkForm(options: {
  db: Db;
  locale: Locale;
  linkId: string;
  fields: FormBody;
  clientAddress: string | null;
}): Promise<string> {
  const { db, locale, linkId, fields, clientAddress } = options;
  const entered = {
    amount: fields.amount?.slice(0, 32),
    phone: fields.phone?.slice(0, 32),
    method: fields.method?.slice(0, 32),
  };
  const back = (errors: string[]) => paymentLinkPagePath({ locale, linkId, ...entered, errors });
  // Every post counts against its client (an unknown address, a process that cannot tell, against none).
  const client =
    clientAddress === null
      ? []
      : [{ policy: rateLimitPolicies.paymentLinkClient, key: rateLimitKeys.paymentLinkClient(linkId, clientAddress) }];
  if (!(await admits(db, client))) return back(["form:too_many"]);
  // Only a start that would create or take up a payment counts against the phone and the link.
  const admit = (phone: string) =>
    admits(db, [
      { policy: rateLimitPolicies.paymentLinkPhone, key: rateLimitKeys.paymentLinkPhone(linkId, phone) },
      { policy: rateLimitPolicies.paymentLink, key: rateLimitKeys.paymentLink(linkId) },
    ]);
  const started: LinkPaymentStart | null = await startLinkPayment(db, {
    linkId,
    phone: fields.phone,
    amount: fields.amount,
    attempt: fields.attempt,
    admit,
  }).catch((error: unknown) => {
    logger.error({ err: error, linkId }, "payment link could not start a payment");
    return null;
  });
  if (!started) return back(["form:error"]);
  switch (started.outcome) {
    case "not_found":
    // The page itself says that the link cannot be paid now.
    case "no_methods":
      return paymentLinkPagePath({ locale, linkId });
    case "closed":
      return paymentLinkClosedPath({ locale, linkId });
    case "busy":
      return back(["form:busy"]);
    case "limited":
      return back(["form:too_many"]);
    case "invalid":
      return back(started.problems.map(({ field, problem }) => `${field}:${problem}`));
    // The buyer's own open intent of a single-use link goes on from where it stands (its checkout page).
    case "created":
    case "resumed":
      break;
  }
  const link = { locale, paymentId: started.paymentId, token: started.token };
  // The intent stands whatever the proceed answers: its checkout page lets the buyer try again.
  return checkoutOutcomePath(await proceedFromCheckout(db, { ...link, code: fields.method || undefined }), link);
}

/**
 * The link page's limits (rateLimitPolicies.paymentLink*), charged in order, each only when the
 * earlier ones admitted the post (gcra.ts): a client or a phone refused its own quota leaves the
 * link's untouched. Admitted when the store cannot answer, as the API is.
 */
async function admits(db: Db, checks: RateLimitCheck[]): Promise<boolean> {
  const decisions = await consumeRateLimits(db, checks, Date.now());
  const refused = decisions?.findIndex((decision) => !decision.allowed) ?? -1;
  if (refused === -1) return true;
  metrics.rateLimitRefusals.inc({ policy: checks[refused]!.policy.name });
  return false;
}
