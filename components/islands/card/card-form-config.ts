/**
 * What the card page's server render hands the card-form island (as JSON, readIslandConfig):
 * the provider's confirmation, where to go after, the saved cards' provider tokens and the words
 * the island may have to show. Labels and the rest of the form are already in the HTML.
 */

/** The words the island itself writes into the page, each translated on the server. */
export const CARD_FORM_ISLAND_TEXT_KEYS = [
  "numberHint",
  "expiryPlaceholder",
  "paying",
  "numberRequired",
  "numberUnsupported",
  "numberIncomplete",
  "numberLuhn",
  "expiryRequired",
  "expiryFormat",
  "expiryPast",
  "cvcRequired",
  "cvcFormat",
  "fixErrors",
  "savedCardUnavailable",
  "error",
] as const;

export type CardFormIslandText = Record<(typeof CARD_FORM_ISLAND_TEXT_KEYS)[number], string> & {
  brandDetectedVisa: string;
  brandDetectedMastercard: string;
};

export interface CardFormConfig {
  locale: string;
  confirmation: { stripeJsUrl: string; publishableKey: string; clientSecret: string };
  /** The gateway step the buyer returns to (absolute, with the page token). */
  completeUrl: string;
  /** The radio's value (the saved card's id) and the provider's token to confirm it with; never a number. */
  savedCards: { id: string; paymentMethodId: string }[];
  text: CardFormIslandText;
}

/** The value of the "New card" radio; with no saved card there is no radio and a new card is the only choice. */
export const NEW_CARD = "new";

/** The ids the server renders and the island finds: one card form per page. */
export const CARD_FORM_IDS = {
  form: "card-form",
  newCard: "card-new-card",
  save: "card-save",
  pay: "card-pay",
  paying: "card-paying",
  problem: "card-problem",
  problemTemplate: "card-problem-template",
  fieldErrorTemplate: "card-field-error-template",
  /** The box a card element mounts into; its label, hint and error take this id plus -label, -hint, -error. */
  field: (field: "number" | "expiry" | "cvc") => `card-${field}`,
} as const;
