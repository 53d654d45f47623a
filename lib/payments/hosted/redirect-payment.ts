import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { findPayment } from "../../db/payment-record";
import { settleRedirectPayment, type RedirectSettlement } from "../../payment-methods/redirect/settle-redirect-payment";
import { startRedirectPayment, type RedirectStart } from "../../payment-methods/redirect/start-redirect-payment";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { BUYER_CAUSE } from "../core/state-change-cause";
import { hasHostedToken } from "./hosted-access";

/** The redirect provider of a payment proceeded with a REDIRECT method; null for any other. */
async function providerOf(db: Db, paymentId: string) {
  const payment = await findPayment(db, paymentId);
  return paymentMethodOf(payment?.paymentMethodCode)?.redirect ?? null;
}

/** Pay on the page before the provider's (under the payment's hosted token): the order is registered and the buyer sent on. */
export async function payWithRedirect(db: Db, options: { paymentId: string; token: string; locale: Locale }): Promise<RedirectStart | { kind: "invalid_link" }> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { kind: "invalid_link" };
  const provider = await providerOf(db, options.paymentId);
  if (!provider) return { kind: "not_waiting" };
  return startRedirectPayment(db, { ...options, provider });
}

/**
 * The buyer is back from the provider: the payment takes the provider's own answer about its
 * order, whatever the return address carries (a forged or replayed return changes nothing).
 */
export async function returnFromRedirect(db: Db, options: { paymentId: string; token: string }): Promise<RedirectSettlement | { kind: "invalid_link" }> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { kind: "invalid_link" };
  const provider = await providerOf(db, options.paymentId);
  if (!provider) return { kind: "unknown_payment" };
  return settleRedirectPayment(db, { paymentId: options.paymentId, provider, cause: BUYER_CAUSE });
}
