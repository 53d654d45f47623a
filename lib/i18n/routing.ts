import { defineRouting } from "next-intl/routing";

export const routing = defineRouting({
  locales: ["en", "fr", "ar"],
  defaultLocale: "en",
  // Every hosted URL names its language, so a link shared or reloaded reads the same.
  localePrefix: "always",
  // Contract 10: the URL's locale, else Accept-Language, else English. A cookie would add a
  // third source that QA cannot see in the link.
  localeCookie: false,
  // The Link header would repeat the page URL, token included, for search engines we never want.
  alternateLinks: false,
});

export type Locale = (typeof routing.locales)[number];
