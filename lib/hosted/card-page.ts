import type { PaymentState } from "../payments/core/payment-state";
import { notAwaitingBuyerPageMode } from "./hosted-outcome";

/** What the hosted card page shows, decided from the payment and its provider intent alone. */
export type CardPageMode =
  /** The card form (saved cards and a new card). */
  | "enter_card"
  /** The provider waits for the buyer's 3DS challenge: send them back to it. */
  | "verify"
  /** The provider answered but the gateway has not settled the payment by it yet: settle now. */
  | "complete"
  | "expired"
  | "finished"
  | "unavailable";

export interface CardPageFacts {
  state: PaymentState;
  expired: boolean;
  paymentMethodCode: string | null;
  hasConfirmation: boolean;
  nextActionUrl: string | null;
  answeredProviderIntentId: string | null;
}

export function cardPageMode(facts: CardPageFacts): CardPageMode {
  if (facts.state !== "REQUIRES_ACTION") return notAwaitingBuyerPageMode(facts.state);
  // A wallet payment also waits in REQUIRES_ACTION, but for its OTP, not a card.
  if (facts.paymentMethodCode !== "CARD_PROVIDER") return "unavailable";
  // Settling first: a charge that arrived too late is reversed there, and the return page says so.
  if (facts.answeredProviderIntentId) return "complete";
  if (facts.expired) return "expired";
  if (facts.nextActionUrl) return "verify";
  return facts.hasConfirmation ? "enter_card" : "unavailable";
}

