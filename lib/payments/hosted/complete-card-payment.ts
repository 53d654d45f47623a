import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { logger } from "../../log";
import { finalizeCardPayment } from "../operations/finalize-card-payment";
import { findPayment } from "../core/payment-record";
import { checkStatusCode, type PaymentState } from "../core/payment-state";
import { assertHostedToken } from "./hosted-access";

/**
 * The buyer is back on the gateway after confirming with the provider (directly or through
 * the 3DS challenge): the same finalize runs for the page, then the payment's state tells
 * the return page what happened. Refusals the state explains (declined, already settled by
 * the provider's event) are not errors here.
 */
export async function completeCardPayment(
  db: Db,
  options: { paymentId: string; token: string; paymentIntentId: string },
): Promise<{ state: PaymentState; statusCode: number }> {
  await assertHostedToken(db, options.paymentId, options.token);
  try {
    await finalizeCardPayment(db, { paymentId: options.paymentId, paymentIntentId: options.paymentIntentId, externalCardId: null });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    logger.info({ paymentId: options.paymentId, outcome: error.errorName }, "card page completion settled nothing new");
  }
  const payment = await findPayment(db, options.paymentId);
  if (!payment) throw new ApiError("invalid_credentials", "Invalid or missing credentials.");
  return { state: payment.state, statusCode: checkStatusCode(payment.state) };
}
