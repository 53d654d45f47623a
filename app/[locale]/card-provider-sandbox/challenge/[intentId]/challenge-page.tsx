import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { CardShell } from "@/components/card-shell";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getChallengePageView } from "@/lib/hosted/views/challenge-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { AnswerForms } from "@/components/answer-forms";
import { StatusBanner } from "@/components/status-banner";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/**
 * GET /{locale}/card-provider-sandbox/challenge/{intentId}?client_secret=...: the sandbox card
 * provider's 3DS test page (contract 9), standing in for the bank's. Sandbox only.
 */
async function render({ locale, params, query: rawQuery }: HostedPageRequest): Promise<HostedPageAnswer> {
  const intentId = params.intentId!;
  const query = hostedPageQuery(rawQuery);
  const clientSecret = typeof rawQuery.client_secret === "string" ? rawQuery.client_secret : "";
  const view = await getChallengePageView(await getDb(), { locale, intentId, clientSecret, notice: query.notice });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);
  const { merchantName, card, form } = view;

  const t = translator(locale, "challenge");
  const tc = translator(locale, "common");
  const amount = formatAmount({ amount: view.amount, currency: view.currency, locale });
  return {
    kind: "page",
    head: { title: translator(locale, "challenge")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("challenge", intentId)} search={query.search}>
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
    ),
  };
}

export const challengePage: HostedPage = { render };
