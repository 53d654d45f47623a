import ar from "../../messages/ar.json";
import en from "../../messages/en.json";
import fr from "../../messages/fr.json";
import checkoutAr from "../../messages/checkout/ar.json";
import checkoutEn from "../../messages/checkout/en.json";
import checkoutFr from "../../messages/checkout/fr.json";
import consoleAr from "../../messages/console/ar.json";
import consoleEn from "../../messages/console/en.json";
import consoleFr from "../../messages/console/fr.json";
import type { Locale } from "./routing";

/**
 * Every page's messages per locale. Each area keeps its own files (hosted pages in
 * `messages/<locale>.json`, the console in `messages/console/`, checkout and payment links in
 * `messages/checkout/`) under top-level namespaces of its own, so two areas never edit one file.
 */
export const catalogs: Record<Locale, Record<string, unknown>> = {
  en: { ...en, ...consoleEn, ...checkoutEn },
  fr: { ...fr, ...consoleFr, ...checkoutFr },
  ar: { ...ar, ...consoleAr, ...checkoutAr },
};
