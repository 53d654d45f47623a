import { getLocale } from "next-intl/server";
import { LinkNotValid } from "@/components/link-not-valid";
import { isLocale } from "@/lib/i18n/locales";
import { routing } from "@/lib/i18n/routing";

// notFound() from a hosted page (bad token, unknown payment): 404 with the neutral page.
// Next.js 16.4 sends this boundary's markup in the RSC payload only, so it appears once
// the page's script runs (vercel/next.js#62228); unknown addresses use app/not-found.tsx.
export default async function LocaleNotFound() {
  const requested = await getLocale();
  return <LinkNotValid locale={isLocale(requested) ? requested : routing.defaultLocale} />;
}
