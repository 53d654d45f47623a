import { getTranslations } from "next-intl/server";
import type { Locale } from "@/lib/i18n/routing";

const KEYS = [
  "methodLegend",
  "newCard",
  "numberLabel",
  "numberHint",
  "expiryLabel",
  "expiryHint",
  "expiryPlaceholder",
  "cvcLabel",
  "cvcHint",
  "saveCard",
  "saveCardHint",
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

/** Every word the card form shows, in the page's language: the form needs no translations of its own. */
export type CardFormText = Record<(typeof KEYS)[number], string> & {
  /** The Pay button ("Pay DZD 1,250.75"). */
  pay: string;
  brandDetectedVisa: string;
  brandDetectedMastercard: string;
};

/** Translated on the server, so the page ships no message catalogue and no next-intl client provider. */
export async function cardFormText(locale: Locale, pay: string): Promise<CardFormText> {
  const t = await getTranslations({ locale, namespace: "card" });
  const text = Object.fromEntries(KEYS.map((key) => [key, t(key)])) as Record<(typeof KEYS)[number], string>;
  return {
    ...text,
    pay,
    brandDetectedVisa: t("brandDetected", { brand: "Visa" }),
    brandDetectedMastercard: t("brandDetected", { brand: "Mastercard" }),
  };
}
