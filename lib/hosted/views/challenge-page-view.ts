import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { fromMinorUnits } from "../../money/amount";
import { getMerchantName } from "../../payments/hosted/get-merchant-name";
import { simulatorMount } from "../../providers/simulator-mount";
import { challengeFormPath, providerReturnWithIntent } from "../../urls/hosted-urls";
import { brandName } from "../../validation/card-number";
import { FORM_TOKEN_FIELD, hostedFormToken } from "../hosted-form-route";
import type { PageRedirectOrNotFound } from "./page-redirect-or-not-found";

/** Everything the sandbox 3DS page renders, decided here; the page only lays it out. */
export type ChallengePageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      /** Null when the intent names no gateway payment. */
      merchantName: string | null;
      /** Standard units. */
      amount: number;
      currency: string;
      /** The card being verified (brand display name, last4); null when unknown. */
      card: { brand: string; last4: string } | null;
      /** Awaiting the answer: the Complete/Fail forms; null once answered. */
      form: { action: string; hidden: Record<string, string>; refused: boolean } | null;
    };

/**
 * GET /{locale}/card-provider-sandbox/challenge/{intentId}?client_secret=...: the sandbox card
 * provider's 3DS test page (contract 9), standing in for the bank's. Sandbox only; an intent
 * answered already (back button, reload) sends the buyer on to the gateway.
 */
export async function getChallengePageView(
  db: Db,
  options: { locale: Locale; intentId: string; clientSecret: string; notice: string | undefined },
): Promise<ChallengePageView> {
  const { locale, intentId, clientSecret } = options;
  if (!getConfig().isSandbox) return { kind: "not_found" };
  const challenge = await simulatorMount().card.challengeOf(db, { intentId, clientSecret });
  if (!challenge) return { kind: "not_found" };
  const merchantName = challenge.paymentId ? await getMerchantName(db, challenge.paymentId) : null;
  const awaiting = challenge.status === "requires_action";
  if (!awaiting && challenge.returnUrl) {
    return { kind: "redirect", location: providerReturnWithIntent(challenge.returnUrl, challenge.intentId) };
  }
  return {
    kind: "render",
    merchantName,
    amount: fromMinorUnits(challenge.amountMinor, challenge.currency),
    currency: challenge.currency,
    card: challenge.brand && challenge.last4 ? { brand: brandName(challenge.brand), last4: challenge.last4 } : null,
    form: awaiting
      ? {
          action: challengeFormPath({ locale, intentId: challenge.intentId }),
          hidden: { clientSecret, [FORM_TOKEN_FIELD]: await hostedFormToken(db, "challenge", clientSecret) },
          refused: options.notice === "refused",
        }
      : null,
  };
}
