import { translator } from "@/lib/i18n/translator";
import { CARD_FORM_ISLAND_TEXT_KEYS, type CardFormIslandText } from "@/components/islands/card/card-form-config";
import type { Locale } from "@/lib/i18n/routing";

/** The words the form's HTML shows (labels, hints, the Pay button). */
const FORM_KEYS = [
  "methodLegend",
  "newCard",
  "numberLabel",
  "numberHint",
  "expiryLabel",
  "expiryHint",
  "cvcLabel",
  "cvcHint",
  "saveCard",
  "saveCardHint",
] as const;

export type CardFormText = Record<(typeof FORM_KEYS)[number], string> & {
  /** The Pay button ("Pay DZD 1,250.75"). */
  pay: string;
};

/**
 * Every word of the card form, in the page's language: what the HTML shows, and what the
 * island may write later (errors, hints), which travels in its config. Translated on the
 * server, so the page ships no message catalogue and no i18n code.
 */
export function cardFormText(locale: Locale, pay: string): { form: CardFormText; island: CardFormIslandText } {
  const t = translator(locale, "card");
  const formText = Object.fromEntries(FORM_KEYS.map((key) => [key, t(key)])) as Record<
    (typeof FORM_KEYS)[number],
    string
  >;
  const islandText = Object.fromEntries(CARD_FORM_ISLAND_TEXT_KEYS.map((key) => [key, t(key)])) as Record<
    (typeof CARD_FORM_ISLAND_TEXT_KEYS)[number],
    string
  >;
  return {
    form: { ...formText, pay },
    island: {
      ...islandText,
      brandDetectedVisa: t("brandDetected", { brand: "Visa" }),
      brandDetectedMastercard: t("brandDetected", { brand: "Mastercard" }),
    },
  };
}
