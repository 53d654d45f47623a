import ar from "../../messages/ar.json";
import en from "../../messages/en.json";
import fr from "../../messages/fr.json";
import checkoutAr from "../../messages/checkout/ar.json";
import checkoutEn from "../../messages/checkout/en.json";
import checkoutFr from "../../messages/checkout/fr.json";
import consoleAr from "../../messages/console/ar.json";
import consoleEn from "../../messages/console/en.json";
import consoleFr from "../../messages/console/fr.json";
import { METHOD_DECLARATIONS } from "../payment-methods/declarations/method-declarations";
import { mergeMessages, type Messages } from "./merge-messages";
import type { Locale } from "./routing";

/**
 * Every page's messages per locale. Each area keeps its own files (hosted pages in
 * `messages/<locale>.json`, the console in `messages/console/`, checkout and payment links in
 * `messages/checkout/`) under top-level namespaces of its own, so two areas never edit one file;
 * a payment method's words live in its own folder (lib/payment-methods/<method>/declaration/).
 */
export const catalogs: Record<Locale, Record<string, unknown>> = {
  en: withMethodWords("en", { ...en, ...consoleEn, ...checkoutEn }),
  fr: withMethodWords("fr", { ...fr, ...consoleFr, ...checkoutFr }),
  ar: withMethodWords("ar", { ...ar, ...consoleAr, ...checkoutAr }),
};

/** The locale's catalogue with each method's own words (its declaration's messages) added. */
function withMethodWords(locale: Locale, pages: Messages): Messages {
  return METHOD_DECLARATIONS.reduce(
    (catalogue, method) =>
      "messages" in method ? mergeMessages(catalogue, method.messages[locale] as Messages) : catalogue,
    pages,
  );
}
