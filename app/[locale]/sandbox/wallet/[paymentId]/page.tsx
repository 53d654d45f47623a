import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { CardShell } from "@/components/card-shell";
import { StatusBanner, type StatusTone } from "@/components/status-banner";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { walletAppMode, type WalletAppMode } from "@/lib/hosted/qr-page";
import { formatAmount } from "@/lib/i18n/format-amount";
import { isLocale } from "@/lib/i18n/locales";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { getWalletAppPayment } from "@/lib/payments/hosted/get-wallet-app-payment";
import { AnswerForms } from "@/components/answer-forms";
import { FORM_TOKEN_FIELD, hostedFormToken } from "@/lib/hosted/hosted-form-route";
import { walletAppFormPath } from "@/lib/hosted/wallet-app-form";

interface WalletAppPageProps {
  params: Promise<{ locale: string; paymentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const generateMetadata = titleFromMessages("wallet");

const answered: Record<Exclude<WalletAppMode, "awaiting">, { tone: StatusTone; title: string; body: string }> = {
  approved: { tone: "success", title: "approvedTitle", body: "approvedBody" },
  declined: { tone: "info", title: "declinedTitle", body: "declinedBody" },
  rejected: { tone: "error", title: "rejectedTitle", body: "rejectedBody" },
  expired: { tone: "warning", title: "expiredTitle", body: "expiredBody" },
  closed: { tone: "info", title: "closedTitle", body: "closedBody" },
};

/**
 * GET /{locale}/sandbox/wallet/{paymentId}?token=...: the sandbox wallet app the QR code links
 * to (contract 9), standing in for the customer's wallet on a phone. Sandbox only.
 */
export default async function WalletAppPage({ params, searchParams }: WalletAppPageProps) {
  const { locale, paymentId } = await params;
  if (!isLocale(locale) || !getConfig().isSandbox) notFound();
  setRequestLocale(locale);
  const query = hostedPageQuery(await searchParams);
  if (!query.token) notFound();
  const db = await getDb();
  const view = await getWalletAppPayment(db, { paymentId, token: query.token });
  if (!view) notFound();

  const mode = walletAppMode({ state: view.state, expired: view.expired, qrStatus: view.qr.status });
  const t = await getTranslations({ locale, namespace: "wallet" });
  const merchant = view.merchantName;
  const formToken = await hostedFormToken(db, "wallet", query.token);
  const outcome = mode === "awaiting" ? null : answered[mode];
  const body =
    mode === "approved" && view.captureMethod === "RESERVATION" ? t("reservedBody", { merchant }) : outcome ? t(outcome.body, { merchant }) : null;

  return (
    <CardShell locale={locale} path={`/sandbox/wallet/${paymentId}`} search={query.search}>
      <div className="flex flex-col gap-2">
        <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t("appName")}</p>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{outcome ? t(outcome.title) : t("title")}</h1>
        {mode === "awaiting" ? <p className="text-slate-700">{t("intro", { merchant })}</p> : null}
      </div>
      <AmountDisplay locale={locale} merchantName={merchant} amount={view.amount} currency={view.currency} />
      <dl className="flex flex-col gap-3 rounded-xl px-4 py-3 ring-1 ring-slate-200">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <dt className="text-sm font-medium text-slate-700">{t("balance")}</dt>
          <dd className="text-base font-semibold text-slate-900 tabular-nums">
            <bdi>{formatAmount({ amount: view.availableBalance, currency: view.currency, locale })}</bdi>
          </dd>
        </div>
        {view.qr.approvalCode ? (
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <dt className="text-sm font-medium text-slate-700">{t("approvalCode")}</dt>
            <dd className="font-mono text-base font-semibold tracking-widest text-slate-900">
              <bdi>{view.qr.approvalCode}</bdi>
            </dd>
          </div>
        ) : null}
      </dl>
      {outcome ? (
        <StatusBanner tone={outcome.tone} role="status">
          {body}
        </StatusBanner>
      ) : (
        <div className="flex flex-col gap-3">
          {query.notice === "error" ? (
            <StatusBanner tone="error" role="alert">
              {t("error")}
            </StatusBanner>
          ) : null}
          <AnswerForms
            action={walletAppFormPath({ locale, paymentId })}
            hidden={{ token: query.token, [FORM_TOKEN_FIELD]: formToken }}
            answers={[
              { outcome: "approve", label: t("approve"), variant: "primary" },
              { outcome: "decline", label: t("decline"), variant: "secondary" },
            ]}
          />
        </div>
      )}
    </CardShell>
  );
}
