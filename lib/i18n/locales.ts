import { routing, type Locale } from "./routing";

/** Each language named in itself, so a buyer finds theirs whatever the page's language. */
export const localeNames: Record<Locale, string> = {
  en: "English",
  fr: "Français",
  ar: "العربية",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (routing.locales as readonly string[]).includes(value);
}

export function textDirection(locale: Locale): "ltr" | "rtl" {
  switch (locale) {
    case "ar":
      return "rtl";
    case "en":
    case "fr":
      return "ltr";
  }
}

/**
 * The locale Intl formats numbers with. Arabic keeps Western digits: our Maghreb buyers
 * read them on their banking apps, and they match the digits of the code they type. Naming
 * the numbering system also keeps server and browser ICU versions from disagreeing.
 */
export function numberLocale(locale: Locale): string {
  return `${locale}-u-nu-latn`;
}

/** The hosted pages' language from an x-locale header: fr_FR -> fr, ar_DZ -> ar, anything else -> en. */
export function pageLocaleOf(xLocale: string | null | undefined): Locale | null {
  if (!xLocale) return null;
  const language = xLocale.trim().toLowerCase().split(/[_-]/)[0];
  return isLocale(language) ? language : "en";
}
