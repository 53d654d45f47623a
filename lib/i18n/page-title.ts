import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { isLocale } from "./locales";

/**
 * A page's generateMetadata: its title is `<namespace>.title` in the route's locale. An
 * unknown locale gets no title, since the page itself answers not found.
 */
export function titleFromMessages(namespace: string) {
  return async function generateMetadata({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> {
    const { locale } = await params;
    if (!isLocale(locale)) return {};
    const t = await getTranslations({ locale, namespace });
    return { title: t("title") };
  };
}
