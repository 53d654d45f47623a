import { getLocale } from "next-intl/server";
import { headers } from "next/headers";
import { LinkNotValid, linkNotValidTitle } from "@/components/link-not-valid";
import { PAGE_URL_HEADER } from "@/lib/hosted/page-url";
import { isLocale, textDirection } from "@/lib/i18n/locales";
import { routing } from "@/lib/i18n/routing";

// Any address no route matches, e.g. /fr/pay/nothing: the proxy has already put the URL's
// locale on the request, so the neutral page speaks the buyer's language.
export default async function GlobalNotFound() {
  const requested = await getLocale();
  const locale = isLocale(requested) ? requested : routing.defaultLocale;
  return (
    <html lang={locale} dir={textDirection(locale)}>
      <body>
        <title>{linkNotValidTitle(locale)}</title>
        <LinkNotValid locale={locale} pageUrl={(await headers()).get(PAGE_URL_HEADER)} />
      </body>
    </html>
  );
}
