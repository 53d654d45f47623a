import type { Db } from "../../../db/client";
import { logger } from "../../../log";
import { finalizeCardPayment } from "../finalize-card-payment";
import { BUYER_CAUSE } from "../../../payments/core/state-change-cause";
import { findPayment } from "../../../db/payment-record";
import { checkStatusCode, type PaymentState } from "../../../payments/core/payment-state";
import { hasHostedToken } from "../../../payments/core/hosted-access";

/** Where the buyer goes after the provider: the return page shows the state, or the card page decides. */
export type CardPageCompletion =
  | { kind: "finished"; state: PaymentState; statusCode: number }
  /** A wrong token, or no such payment. */
  | { kind: "not_allowed" }
  /** The provider could not be read: nothing changed, the card page lets the buyer try again. */
  | { kind: "provider_unavailable" };

/**
 * The buyer is back on the gateway after confirming with the provider (directly or through
 * the 3DS challenge): the same finalize runs for the page, then the payment's state tells
 * the return page what happened. Outcomes the state explains (declined, already settled by
 * the provider's event) are not errors here.
 */
export async function completeCardPayment(
  db: Db,
  options: { paymentId: string; token: string; paymentIntentId: string },
): Promise<CardPageCompletion> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return { kind: "not_allowed" };
  const result = await finalizeCardPayment(db, {
    paymentId: options.paymentId,
    paymentIntentId: options.paymentIntentId,
    externalCardId: null,
    cause: BUYER_CAUSE,
  });
  if (result.kind === "provider_unavailable") return result;
  if (result.kind !== "settled")
    logger.info({ paymentId: options.paymentId, outcome: result.kind }, "card page completion settled nothing new");
  const payment = await findPayment(db, options.paymentId);
  if (!payment) return { kind: "not_allowed" };
  return { kind: "finished", state: payment.state, statusCode: checkStatusCode(payment.state) };
}
