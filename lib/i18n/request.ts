import { hasLocale } from "next-intl";
import { getRequestConfig } from "next-intl/server";
import { catalogs } from "./catalogs";
import { routing } from "./routing";

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  return {
    locale,
    messages: catalogs[locale],
    // Server and browser must format alike, or hydration would disagree.
    timeZone: "UTC",
  };
});
