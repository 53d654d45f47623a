import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { findPayment } from "../../db/payment-record";
import { settleRedirectPayment, type RedirectSettlement } from "../../payment-methods/redirect/settle-redirect-payment";
import { startRedirectPayment, type RedirectStart } from "../../payment-methods/redirect/start-redirect-payment";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { BUYER_CAUSE, SYSTEM_CAUSE } from "../core/state-change-cause";
import { hasHostedToken } from "../core/hosted-access";

/** The redirect provider of a payment proceeded with a REDIRECT method; null for any other. */
async function providerOf(db: Db, paymentId: string) {
  const payment = await findPayment(db, paymentId);
  return paymentMethodOf(payment?.paymentMethodCode)?.redirect ?? null;
}

/**
 * Pay on the page before the provider's (under the payment's hosted token): the order is registered and the
 * buyer sent on.
 */
export async function payWithRedirect(
  db: Db,
  options: { paymentId: string; token: string; locale: Locale },
): Promise<RedirectStart | { kind: "invalid_link" }> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { kind: "invalid_link" };
  const provider = await providerOf(db, options.paymentId);
  if (!provider) return { kind: "not_waiting" };
  return startRedirectPayment(db, { ...options, provider });
}

/**
 * The buyer is back from the provider: the payment takes the provider's own answer about its
 * order, whatever the return address carries (a forged or replayed return changes nothing).
 */
export async function returnFromRedirect(
  db: Db,
  options: { paymentId: string; token: string },
): Promise<RedirectSettlement | { kind: "invalid_link" }> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { kind: "invalid_link" };
  const provider = await providerOf(db, options.paymentId);
  if (!provider) return { kind: "unknown_payment" };
  return settleRedirectPayment(db, { paymentId: options.paymentId, provider, cause: BUYER_CAUSE });
}

/** What a provider's notification about a redirect payment led to. */
export type RedirectNotification =
  /** Verified and applied (or already applied: a notification sent twice, or after the return, changes nothing). */
  | { kind: "accepted"; settlement: RedirectSettlement }
  /** The signature did not verify against the merchant's credentials: nothing was read from it. */
  | { kind: "rejected" }
  /** No redirect payment of a notifying provider by that id. */
  | { kind: "unknown_payment" };

/**
 * A provider posted the outcome of a payment's order (Chargily's signed webhook): verified with
 * the merchant's credentials, then settled through the same path as the return and
 * reconciliation, so it is applied once whatever the order in which they come.
 */
export async function notifyRedirect(
  db: Db,
  options: { paymentId: string; body: string; headers: Headers },
): Promise<RedirectNotification> {
  const payment = await findPayment(db, options.paymentId);
  const provider = paymentMethodOf(payment?.paymentMethodCode)?.redirect ?? null;
  if (!payment || !provider?.notifications) return { kind: "unknown_payment" };
  const account = await provider.account(db, payment.serviceId);
  const reported = account
    ? provider.notifications.read(account, { body: options.body, headers: options.headers })
    : null;
  if (!reported) return { kind: "rejected" };
  const settlement = await settleRedirectPayment(db, {
    paymentId: payment.id,
    provider,
    cause: SYSTEM_CAUSE,
    reported,
  });
  return { kind: "accepted", settlement };
}
