import { notFound } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { isLocale } from "../i18n/locales";
import type { Locale } from "../i18n/routing";
import { hostedPageQuery, type HostedPageQuery } from "./hosted-page-query";

/** What Next.js hands a page under /{locale}/pay/.../{paymentId}. */
export interface HostedPageProps {
  params: Promise<{ locale: string; paymentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * The opening every hosted payment page shares: an unknown locale is not found, the locale is
 * set for the page's translations, and the query is read the one way (hostedPageQuery).
 */
export async function openHostedPage({ params, searchParams }: HostedPageProps): Promise<{
  locale: Locale;
  paymentId: string;
  query: HostedPageQuery;
}> {
  const { locale, paymentId } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return { locale, paymentId, query: hostedPageQuery(await searchParams) };
}
