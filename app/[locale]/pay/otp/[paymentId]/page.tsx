import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { CardShell } from "@/components/card-shell";
import { NoClientRuntime } from "@/components/island";
import { ButtonLink } from "@/components/button";
import { ExpiredNotice } from "@/components/expired-notice";
import { getDb } from "@/lib/db/client";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { openHostedPage, type HostedPageProps } from "@/lib/hosted/open-hosted-page";
import { getOtpPageView } from "@/lib/hosted/views/otp-page-view";
import { OtpForm } from "./otp-form";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

export const generateMetadata = titleFromMessages("otp");

/** GET /{locale}/pay/otp/{paymentId}?token=...&returnUrl=...: the buyer confirms a wallet payment. */
export default async function OtpPage(props: HostedPageProps) {
  const { locale, paymentId, query } = await openHostedPage(props);
  const view = await getOtpPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") notFound();
  if (view.kind === "redirect") redirect(view.location);

  const t = await getTranslations({ locale, namespace: "otp" });
  return (
    <CardShell locale={locale} path={pagePathWithoutLocale("otp", paymentId)} search={query.search}>
      {/* In every mode: the resend countdown, when shown, is an island; nothing else needs script. */}
      <NoClientRuntime />
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{view.mode === "expired" ? t("expiredTitle") : t("title")}</h1>
        {view.mode === "enter_code" ? <p className="text-slate-700">{t("intro")}</p> : null}
      </div>
      <AmountDisplay locale={locale} merchantName={view.merchantName} amount={view.amount} currency={view.currency} />
      {view.form ? <OtpForm paymentId={paymentId} locale={locale} {...view.form} /> : <ExpiredNotice locale={locale} merchantName={view.merchantName} target={view.expiredTarget} />}
      {view.shopLink ? (
        <ButtonLink variant="quiet" href={view.shopLink}>
          {t("backToShop", { merchant: view.merchantName })}
        </ButtonLink>
      ) : null}
    </CardShell>
  );
}
