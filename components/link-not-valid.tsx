import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { PAGE_URL_HEADER, unlocalizedPageUrl } from "@/lib/hosted/page-url";
import { routing, type Locale } from "@/lib/i18n/routing";
import { CardShell } from "./card-shell";
import { StatusBanner } from "./status-banner";

/**
 * The neutral answer to a wrong token, an unknown payment or a mistyped address alike: it
 * never tells which, so links cannot be probed. Its language switcher keeps the address.
 */
export async function LinkNotValid({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: "linkInvalid" });
  const { path, search } = unlocalizedPageUrl((await headers()).get(PAGE_URL_HEADER), routing.locales);
  return (
    <CardShell locale={locale} path={path} search={search}>
      <title>{t("title")}</title>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
      <StatusBanner tone="info">{t("body")}</StatusBanner>
    </CardShell>
  );
}
