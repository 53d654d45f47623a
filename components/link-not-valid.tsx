import { unlocalizedPageUrl } from "@/lib/hosted/page-url";
import { translator } from "@/lib/i18n/translator";
import { routing, type Locale } from "@/lib/i18n/routing";
import { CardShell } from "./card-shell";
import { StatusBanner } from "./status-banner";

/**
 * The neutral answer to a wrong token, an unknown payment or a mistyped address alike: it
 * never tells which, so links cannot be probed. Its language switcher keeps the address
 * (`pageUrl`: the page's own path and query).
 */
export function LinkNotValid({ locale, pageUrl }: { locale: Locale; pageUrl: string | null }) {
  const t = translator(locale, "linkInvalid");
  const { path, search } = unlocalizedPageUrl(pageUrl, routing.locales);
  return (
    <CardShell locale={locale} path={path} search={search}>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
      <StatusBanner tone="info">{t("body")}</StatusBanner>
    </CardShell>
  );
}

export function linkNotValidTitle(locale: Locale): string {
  return translator(locale, "linkInvalid")("title");
}
