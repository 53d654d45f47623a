import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { AmountDisplay } from "@/components/amount-display";
import { AnswerForms } from "@/components/answer-forms";
import { CardShell } from "@/components/card-shell";
import { StatusBanner } from "@/components/status-banner";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getWalletAppPageView } from "@/lib/hosted/views/wallet-app-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/**
 * GET /{locale}/sandbox/wallet/{paymentId}?token=...: the sandbox wallet app the QR code links
 * to (contract 9), standing in for the customer's wallet on a phone. Sandbox only.
 */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getWalletAppPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;

  const t = translator(locale, "wallet");
  const merchant = view.merchantName;
  const { answered, form } = view;

  return {
    kind: "page",
    head: { title: translator(locale, "wallet")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("wallet-app", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t("appName")}</p>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {answered ? t(answered.title) : t("title")}
          </h1>
          {view.mode === "awaiting" ? <p className="text-slate-700">{t("intro", { merchant })}</p> : null}
        </div>
        <AmountDisplay locale={locale} merchantName={merchant} amount={view.amount} currency={view.currency} />
        <dl className="flex flex-col gap-3 rounded-xl px-4 py-3 ring-1 ring-slate-200">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <dt className="text-sm font-medium text-slate-700">{t("balance")}</dt>
            <dd className="text-base font-semibold text-slate-900 tabular-nums">
              <bdi>{formatAmount({ amount: view.availableBalance, currency: view.currency, locale })}</bdi>
            </dd>
          </div>
          {view.approvalCode ? (
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <dt className="text-sm font-medium text-slate-700">{t("approvalCode")}</dt>
              <dd className="font-mono text-base font-semibold tracking-widest text-slate-900">
                <bdi>{view.approvalCode}</bdi>
              </dd>
            </div>
          ) : null}
        </dl>
        {answered ? (
          <StatusBanner tone={answered.tone} role="status">
            {t(answered.body, { merchant })}
          </StatusBanner>
        ) : form ? (
          <div className="flex flex-col gap-3">
            {form.notice === "error" ? (
              <StatusBanner tone="error" role="alert">
                {t("error")}
              </StatusBanner>
            ) : null}
            <AnswerForms
              action={form.action}
              hidden={form.hidden}
              answers={[
                { outcome: "approve", label: t("approve"), variant: "primary" },
                { outcome: "decline", label: t("decline"), variant: "secondary" },
              ]}
            />
          </div>
        ) : null}
      </CardShell>
    ),
  };
}

export const walletAppPage: HostedPage = { render };
