import { getTranslations, setRequestLocale } from "next-intl/server";
import { notFound } from "next/navigation";
import { CardShell } from "@/components/card-shell";
import { isLocale } from "@/lib/i18n/locales";
import { titleFromMessages } from "@/lib/i18n/page-title";

export const generateMetadata = titleFromMessages("home");

export default async function HomePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: "home" });
  return (
    <CardShell locale={locale} path="">
      <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
      <p className="text-slate-700">{t("body")}</p>
    </CardShell>
  );
}
