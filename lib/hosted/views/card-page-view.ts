import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import type { PaymentState } from "../../payments/core/payment-state";
import { readCardPage, type CardPageData } from "../../payment-methods/registry/method-entry-points";
import { getHostedPayment } from "../../payments/hosted/get-hosted-payment";
import { cardCompletePath, cardCompleteUrl } from "../../urls/hosted-urls";
import { brandName } from "../../validation/card-number";
import type { HostedPageQuery } from "../hosted-page-query";
import { notAwaitingBuyerPageMode } from "../hosted-outcome";
import { expiredReturnTarget, resolveReturnTarget } from "../resolve-return-target";
import { amountDisplayFields } from "./amount-display-fields";
import { notFoundOrToReturnPage, type PageRedirectOrNotFound } from "./page-redirect-or-not-found";

export interface CardShown {
  id: string;
  /** The brand's display name. */
  brand: string;
  last4: string;
  /** Two digits each, for "Expires MM/YY"; null when the provider did not say. */
  expiry: { month: string; year: string } | null;
  /** The provider's token the page confirms a saved card with; never the number. */
  paymentMethodId: string;
}

/** Everything the card page renders, decided here; the page only lays it out. */
export type CardPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      mode: "enter_card" | "verify" | "expired";
      merchantName: string;
      amount: number;
      currency: string;
      /** Where "expired" sends the buyer back to the shop (null: nowhere trusted). */
      expiredTarget: string | null;
      /** Before paying (and without script), the buyer may still go back to the shop. */
      shopLink: string | null;
      /** "verify": the provider's 3DS page the buyer goes back to. */
      verifyUrl: string | null;
      /** "enter_card": what the provider's script confirms with, and where it sends the buyer after. */
      form: {
        confirmation: { stripeJsUrl: string; publishableKey: string; clientSecret: string };
        completeUrl: string;
        savedCards: CardShown[];
        checkedCardId: string | null;
      } | null;
    };

/**
 * The card page's domain read: the payment its token shows and the card method's own read of it
 * (lib/payment-methods/card/hosted/get-card-page.ts). Null for a wrong token or an unknown payment.
 */
export async function getCardPage(db: Db, options: { paymentId: string; token: string }): Promise<CardPageData | null> {
  const payment = await getHostedPayment(db, options);
  return payment && readCardPage(db, payment);
}

/** GET /{locale}/pay/card/{paymentId}: the payment as its token shows it, as the page shows it. */
export async function getCardPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<CardPageView> {
  const { locale, paymentId, query } = options;
  if (!query.token) return { kind: "not_found" };
  const data = await getCardPage(db, { paymentId, token: query.token });
  if (!data) return { kind: "not_found" };
  const { payment, confirmation } = data;
  const link = { locale, paymentId, token: query.token, returnUrl: query.returnUrl };

  const mode = cardPageMode({
    state: payment.state,
    expired: payment.expired,
    paymentMethodCode: payment.paymentMethodCode,
    hasConfirmation: confirmation !== null,
    nextActionUrl: confirmation?.nextActionUrl ?? null,
    answeredProviderIntentId: data.answeredProviderIntentId,
  });
  switch (mode) {
    case "unavailable":
    case "finished":
      return notFoundOrToReturnPage(mode, link);
    case "complete":
      return {
        kind: "redirect",
        location: cardCompletePath({ ...link, paymentIntentId: data.answeredProviderIntentId! }),
      };
    case "expired":
    case "verify":
    case "enter_card":
      break;
  }
  const returnPolicy = {
    paymentId,
    redirectUrl: payment.redirectUrl,
    serviceRedirectUrl: payment.serviceRedirectUrl,
    allowedOrigins: payment.allowedOrigins,
  };
  return {
    kind: "render",
    mode,
    ...amountDisplayFields(payment),
    expiredTarget: mode === "expired" ? expiredReturnTarget(returnPolicy) : null,
    shopLink: mode === "enter_card" ? resolveReturnTarget({ ...returnPolicy, statusCode: payment.statusCode }) : null,
    verifyUrl: mode === "verify" ? confirmation!.nextActionUrl! : null,
    form:
      mode === "enter_card"
        ? {
            confirmation: {
              stripeJsUrl: confirmation!.stripeJsUrl,
              publishableKey: confirmation!.publishableKey,
              clientSecret: confirmation!.clientSecret,
            },
            completeUrl: cardCompleteUrl(link),
            savedCards: data.savedCards.map(({ id, brand, last4, expMonth, expYear, paymentMethodId }) => ({
              id,
              brand: brandName(brand),
              last4,
              expiry:
                expMonth && expYear
                  ? { month: String(expMonth).padStart(2, "0"), year: String(expYear).slice(-2) }
                  : null,
              paymentMethodId,
            })),
            checkedCardId: data.checkedCardId,
          }
        : null,
  };
}

/** What the hosted card page shows, decided from the payment and its provider intent alone (getCardPage reads them). */
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
  // A wallet payment also waits in REQUIRES_ACTION, but on its method's own page (the OTP), not this one.
  if (paymentMethodOf(facts.paymentMethodCode)?.hostedStep !== "card") return "unavailable";
  // Settling first: a charge that arrived too late is reversed there, and the return page says so.
  if (facts.answeredProviderIntentId) return "complete";
  if (facts.expired) return "expired";
  if (facts.nextActionUrl) return "verify";
  return facts.hasConfirmation ? "enter_card" : "unavailable";
}
