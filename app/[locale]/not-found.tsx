import { getLocale } from "next-intl/server";
import { headers } from "next/headers";
import { LinkNotValid, linkNotValidTitle } from "@/components/link-not-valid";
import { PAGE_URL_HEADER } from "@/lib/hosted/page-url";
import { isLocale } from "@/lib/i18n/locales";
import { routing } from "@/lib/i18n/routing";

// notFound() from a page under [locale] (a console page, an unknown language): 404 with the neutral page.
// Next.js 16.4 sends this boundary's markup in the RSC payload only, so it appears once
// the page's script runs (vercel/next.js#62228); unknown addresses use app/not-found.tsx.
export default async function LocaleNotFound() {
  const requested = await getLocale();
  const locale = isLocale(requested) ? requested : routing.defaultLocale;
  return (
    <>
      <title>{linkNotValidTitle(locale)}</title>
      <LinkNotValid locale={locale} pageUrl={(await headers()).get(PAGE_URL_HEADER)} />
    </>
  );
}
