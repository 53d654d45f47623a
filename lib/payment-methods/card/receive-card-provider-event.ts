import type { Db } from "../../db/client";
import { invalidCredentials } from "../../errors/api-error";
import { providerUnavailable } from "../../provider-operations";
import { logger } from "../../log";
import { cardProvider } from "../../providers/card-provider";
import { finalizeCardPayment } from "./finalize-card-payment";
import { SYSTEM_CAUSE } from "../../payments/core/state-change-cause";
import { isPaymentId } from "../../db/payment-record";

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
  const event = await cardProvider().verifyEvent(db, {
    rawBody: options.rawBody,
    headers: options.headers,
    now: options.now ?? new Date(),
  });
  if (!event) throw invalidCredentials();
  const paymentId = event.metadata.paymentId;
  if (!paymentId || !isPaymentId(paymentId)) return { eventId: event.id, handled: false };
  const result = await finalizeCardPayment(db, {
    paymentId,
    paymentIntentId: event.paymentIntentId,
    externalCardId: event.paymentMethodId,
    cause: SYSTEM_CAUSE,
  });
  switch (result.kind) {
    case "settled":
      return { eventId: event.id, handled: true };
    case "provider_unavailable":
      // The provider resends the event; by then it can be read.
      throw providerUnavailable();
    default:
      logger.info(
        { eventId: event.id, type: event.type, paymentId, outcome: result.kind },
        "card provider event settled nothing new",
      );
      return { eventId: event.id, handled: false };
  }
}
