import type { Db } from "../../db/client";
import { ApiError, invalidCredentials } from "../../errors/api-error";
import { logger } from "../../log";
import { cardProvider } from "../../providers/card/card-provider";
import { finalizeCardPayment } from "./finalize-card-payment";
import { isPaymentId } from "../core/payment-record";

export interface ReceivedEvent {
  eventId: string;
  /** False when the event concerns nothing this gateway can act on; the provider need not resend it. */
  handled: boolean;
}

/**
 * Interface "Events" 3: the card provider's signed notification runs the card-finalize
 * handler. A forged or stale signature is refused (401). Events the payment's state makes
 * moot (already settled, declined, unknown payment) are acknowledged so the provider stops
 * resending them; anything unexpected fails the request, so the provider tries again.
 */
export async function receiveCardProviderEvent(
  db: Db,
  options: { rawBody: string; headers: Headers; now?: Date },
): Promise<ReceivedEvent> {
  const event = await cardProvider().verifyEvent(db, { rawBody: options.rawBody, headers: options.headers, now: options.now ?? new Date() });
  if (!event) throw invalidCredentials();
  const paymentId = event.metadata.paymentId;
  if (!paymentId || !isPaymentId(paymentId)) return { eventId: event.id, handled: false };
  try {
    await finalizeCardPayment(db, { paymentId, paymentIntentId: event.paymentIntentId, externalCardId: event.paymentMethodId });
    return { eventId: event.id, handled: true };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      logger.info({ eventId: event.id, type: event.type, paymentId, outcome: error.errorName }, "card provider event settled nothing new");
      return { eventId: event.id, handled: false };
    }
    throw error;
  }
}
