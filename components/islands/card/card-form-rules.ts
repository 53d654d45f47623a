import type { CardFormIslandText } from "./card-form-config";
import type { StripeConfirmResult, StripeElementChange } from "./stripe-js";

/**
 * The card form's own rules on what the Stripe Elements report, and what a confirm's answer
 * means for the buyer. Pure (no DOM), so unit tests read them directly; Stripe checks the card
 * again on confirm.
 */

export const FIELDS = ["number", "expiry", "cvc"] as const;
export type FieldName = (typeof FIELDS)[number];
export type FieldErrors = Partial<Record<FieldName, string>>;
export type Problem = "savedCardUnavailable" | "error" | "fixErrors";

export const ELEMENT_TYPE = { number: "cardNumber", expiry: "cardExpiry", cvc: "cardCvc" } as const;
export const ACCEPTED_BRANDS = ["visa", "mastercard"];

/** An accepted brand the number element detected, for the hint under the number; null otherwise. */
export function acceptedBrand(change: StripeElementChange): string | null {
  return change.brand && ACCEPTED_BRANDS.includes(change.brand) ? change.brand : null;
}

export function numberHint(brand: string | null, text: CardFormIslandText): string {
  return brand === "visa"
    ? text.brandDetectedVisa
    : brand === "mastercard"
      ? text.brandDetectedMastercard
      : text.numberHint;
}

/** What stops a new card from being sent: one message per field at most. */
export function fieldErrors(
  states: Partial<Record<FieldName, StripeElementChange>>,
  text: CardFormIslandText,
): FieldErrors {
  const found: FieldErrors = {};
  const number = states.number;
  if (!number || number.empty) found.number = text.numberRequired;
  else if (number.error?.code === "invalid_number") found.number = text.numberLuhn;
  else if (number.brand && !ACCEPTED_BRANDS.includes(number.brand) && number.brand !== "unknown")
    found.number = text.numberUnsupported;
  else if (!number.complete) found.number = text.numberIncomplete;
  const expiry = states.expiry;
  if (!expiry || expiry.empty) found.expiry = text.expiryRequired;
  else if (expiry.error?.code.includes("past")) found.expiry = text.expiryPast;
  else if (!expiry.complete) found.expiry = text.expiryFormat;
  const cvc = states.cvc;
  if (!cvc || cvc.empty) found.cvc = text.cvcRequired;
  else if (!cvc.complete) found.cvc = text.cvcFormat;
  return found;
}

export type ConfirmOutcome =
  /** The provider has an answer (paid, refused, or 3DS to do): the page moves on. */
  | { kind: "leave"; redirect: string | null; paymentIntentId: string; handleNextAction: boolean }
  /** The provider refused a field of the new card: the buyer corrects it. */
  | { kind: "fields"; errors: FieldErrors }
  /** Nothing reached a decision: the buyer may try again. */
  | { kind: "problem"; problem: Problem };

/** What the page does with `confirmCardPayment`'s answer. */
export function confirmOutcome(
  result: StripeConfirmResult,
  savedCard: boolean,
  text: CardFormIslandText,
): ConfirmOutcome {
  const intent = result.paymentIntent ?? result.error?.payment_intent;
  // A refused card is an answer too: the gateway reads it back and the payment fails.
  if (intent && (result.paymentIntent || result.error?.type === "card_error")) {
    const requiresAction = intent.status === "requires_action";
    const redirect =
      requiresAction && intent.next_action?.type === "redirect_to_url"
        ? (intent.next_action.redirect_to_url?.url ?? null)
        : null;
    return { kind: "leave", redirect, paymentIntentId: intent.id, handleNextAction: requiresAction && !redirect };
  }
  const code = result.error?.code ?? null;
  if (savedCard)
    return {
      kind: "problem",
      problem: code === "resource_missing" || code === "expired_card" ? "savedCardUnavailable" : "error",
    };
  if (code === "incorrect_number" || code === "invalid_number")
    return { kind: "fields", errors: { number: text.numberLuhn } };
  if (code === "card_not_supported") return { kind: "fields", errors: { number: text.numberUnsupported } };
  if (code === "invalid_expiry" || code === "expired_card" || code === "invalid_expiry_year_past")
    return { kind: "fields", errors: { expiry: text.expiryPast } };
  if (code === "incorrect_cvc" || code === "invalid_cvc") return { kind: "fields", errors: { cvc: text.cvcFormat } };
  return { kind: "problem", problem: "error" };
}
