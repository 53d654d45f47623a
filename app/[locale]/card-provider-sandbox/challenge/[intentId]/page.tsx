import { notFound, redirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { CardShell } from "@/components/card-shell";
import { NoClientRuntime } from "@/components/island";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getChallengePageView } from "@/lib/hosted/views/challenge-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { isLocale } from "@/lib/i18n/locales";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { AnswerForms } from "@/components/answer-forms";
import { StatusBanner } from "@/components/status-banner";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

interface ChallengePageProps {
  params: Promise<{ locale: string; intentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const generateMetadata = titleFromMessages("challenge");

/**
 * GET /{locale}/card-provider-sandbox/challenge/{intentId}?client_secret=...: the sandbox card
 * provider's 3DS test page (contract 9), standing in for the bank's. Sandbox only.
 */
export default async function ChallengePage({ params, searchParams }: ChallengePageProps) {
  const { locale, intentId } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const rawQuery = await searchParams;
  const query = hostedPageQuery(rawQuery);
  const clientSecret = typeof rawQuery.client_secret === "string" ? rawQuery.client_secret : "";
  const view = await getChallengePageView(await getDb(), { locale, intentId, clientSecret, notice: query.notice });
  if (view.kind === "not_found") notFound();
  if (view.kind === "redirect") redirect(view.location);
  const { merchantName, card, form } = view;

  const t = await getTranslations({ locale, namespace: "challenge" });
  const tc = await getTranslations({ locale, namespace: "common" });
  const amount = formatAmount({ amount: view.amount, currency: view.currency, locale });
  return (
    <CardShell locale={locale} path={pagePathWithoutLocale("challenge", intentId)} search={query.search}>
      {/* Plain HTML forms and links: the page needs no script at all. */}
      <NoClientRuntime />
      <div className="flex flex-col gap-2">
        <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t("provider")}</p>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
        <p className="text-slate-700">{t("intro")}</p>
      </div>
      <dl className="grid gap-4 rounded-xl bg-slate-50 px-4 py-4 ring-1 ring-slate-200">
        {merchantName ? (
          <div className="flex flex-col gap-0.5">
            <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{tc("merchant")}</dt>
            <dd className="text-base font-semibold text-slate-900">
              <bdi>{merchantName}</bdi>
            </dd>
          </div>
        ) : null}
        {card ? (
          <div className="flex flex-col gap-0.5">
            <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{t("cardLabel")}</dt>
            <dd className="text-base font-semibold text-slate-900">{t("card", card)}</dd>
          </div>
        ) : null}
        <div className="flex flex-col gap-0.5">
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{tc("amount")}</dt>
          <dd className="text-3xl font-bold tracking-tight text-slate-900 tabular-nums">
            <bdi>{amount}</bdi>
          </dd>
        </div>
      </dl>
      {form ? (
        <div className="flex flex-col gap-3">
          {form.refused ? (
            <StatusBanner tone="error" role="alert">
              {t("unavailable")}
            </StatusBanner>
          ) : null}
          <AnswerForms
            action={form.action}
            hidden={form.hidden}
            answers={[
              { outcome: "complete", label: t("complete"), variant: "primary" },
              { outcome: "fail", label: t("fail"), variant: "secondary" },
            ]}
          />
        </div>
      ) : (
        <p className="text-sm text-slate-700">{t("unavailable")}</p>
      )}
    </CardShell>
  );
}
