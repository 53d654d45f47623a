import { eq } from "drizzle-orm";
import { findSavedCard, listSavedCards } from "../../../cards/list-saved-cards";
import type { Db } from "../../../db/client";
import { cardPayments, payments, services } from "../../../db/schema";
import { cardProvider } from "../../../providers/card-provider";
import type { BrowserConfirmation } from "../../../providers/card/port";
import type { HostedPaymentView } from "../../contract/hosted-payment-view";

export interface CardPageSavedCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  /** The provider's token the page confirms a saved card with; never the number. */
  paymentMethodId: string;
}

export interface CardPageData {
  payment: HostedPaymentView;
  /** Most recently used first. */
  savedCards: CardPageSavedCard[];
  /** The card checked when the page opens: the merchant's cardId, else the most recently used. */
  checkedCardId: string | null;
  /** How the page's script confirms with the provider; null unless the payment awaits its card. */
  confirmation: (BrowserConfirmation & { paymentIntentId: string }) | null;
  /**
   * The provider already answered but the payment was not settled by it yet (the buyer left
   * before coming back): the page completes it instead of asking for a card again.
   */
  answeredProviderIntentId: string | null;
}

/**
 * The hosted card page's domain read (lib/hosted/views/card-page-view.ts decides what it shows
 * from it): the payment its token shows (read by the page, getHostedPayment), the customer's
 * saved cards and the provider intent's confirmation.
 */
export async function readCardPage(db: Db, payment: HostedPaymentView): Promise<CardPageData> {
  const [row] = await db
    .select({
      serviceId: payments.serviceId,
      customerId: payments.customerId,
      country: payments.country,
      publishableKey: services.cardProviderPublishableKey,
      card: cardPayments,
    })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .leftJoin(cardPayments, eq(cardPayments.paymentId, payments.id))
    .where(eq(payments.id, payment.paymentId));
  // A payment of this method (cardMethod.hostedStep is the card page), with its provider intent.
  if (!row?.card || payment.paymentMethodCode !== "CARD_PROVIDER") {
    return { payment, savedCards: [], checkedCardId: null, confirmation: null, answeredProviderIntentId: null };
  }

  const owner = { serviceId: row.serviceId, customerId: row.customerId };
  const cards = await listSavedCards(db, { ...owner, paymentMethodCode: "CARD_PROVIDER" });
  const preselected = row.card.preselectedCardId
    ? await findSavedCard(db, { ...owner, cardId: row.card.preselectedCardId })
    : null;
  const awaitingCard = payment.state === "REQUIRES_ACTION" && !payment.expired;
  const account = { serviceId: row.serviceId, country: row.country };
  const intent = awaitingCard
    ? await cardProvider().retrievePaymentIntent(db, { id: row.card.providerIntentId, account })
    : null;
  // A refused card is an answer too: the payment fails with it rather than taking another card.
  const awaitingBuyer =
    (intent?.status === "requires_payment_method" && !intent.lastErrorCode) || intent?.status === "requires_action";
  const confirmation =
    intent && awaitingBuyer
      ? {
          ...(await cardProvider().browserConfirmation(db, { intent, publishableKey: row.publishableKey, account })),
          paymentIntentId: intent.id,
        }
      : null;
  return {
    payment,
    savedCards: cards.map((card) => ({
      id: card.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      paymentMethodId: card.providerPaymentMethodId,
    })),
    checkedCardId: preselected?.id ?? cards[0]?.id ?? null,
    confirmation,
    answeredProviderIntentId: intent && !awaitingBuyer ? intent.id : null,
  };
}
