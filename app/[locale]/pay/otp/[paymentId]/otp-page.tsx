import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { AmountDisplay } from "@/components/amount-display";
import { CardShell } from "@/components/card-shell";
import { ButtonLink } from "@/components/button";
import { ExpiredNotice } from "@/components/expired-notice";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getOtpPageView } from "@/lib/hosted/views/otp-page-view";
import { OtpForm } from "./otp-form";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/** GET /{locale}/pay/otp/{paymentId}?token=...&returnUrl=...: the buyer confirms a wallet payment. */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getOtpPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);

  const t = translator(locale, "otp");
  return {
    kind: "page",
    head: { title: translator(locale, "otp")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("otp", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {view.mode === "expired" ? t("expiredTitle") : t("title")}
          </h1>
          {view.mode === "enter_code" ? <p className="text-slate-700">{t("intro")}</p> : null}
        </div>
        <AmountDisplay locale={locale} merchantName={view.merchantName} amount={view.amount} currency={view.currency} />
        {view.form ? (
          <OtpForm paymentId={paymentId} locale={locale} {...view.form} />
        ) : (
          <ExpiredNotice locale={locale} merchantName={view.merchantName} target={view.expiredTarget} />
        )}
        {view.shopLink ? (
          <ButtonLink variant="quiet" href={view.shopLink}>
            {t("backToShop", { merchant: view.merchantName })}
          </ButtonLink>
        ) : null}
      </CardShell>
    ),
  };
}

export const otpPage: HostedPage = { render };
