import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { AmountDisplay } from "@/components/amount-display";
import { Button, ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { ExpiredNotice } from "@/components/expired-notice";
import { MethodChoice } from "@/components/method-choice";
import { StatusBanner } from "@/components/status-banner";
import { getDb } from "@/lib/db/client";
import { FORM_TOKEN_FIELD } from "@/lib/hosted/hosted-form-route";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getCheckoutPageView } from "@/lib/hosted/views/checkout-page-view";
import { checkoutFormPath, pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/** GET /{locale}/pay/checkout/{paymentId}?token=...&returnUrl=...: the buyer chooses how to pay (contract 14). */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getCheckoutPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);

  const t = translator(locale, "checkout");
  const tOtp = translator(locale, "otp");
  const { mode, form, merchantName } = view;
  const title = mode === "expired" ? tOtp("expiredTitle") : mode === "finished" ? t("finishedTitle") : t("title");
  const notice = form?.notice;
  return {
    kind: "page",
    head: { title: translator(locale, "checkout")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("checkout", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {mode === "choose" ? <p className="text-slate-700">{t("intro")}</p> : null}
        </div>
        <AmountDisplay locale={locale} merchantName={merchantName} amount={view.amount} currency={view.currency} />
        {mode === "expired" ? (
          <ExpiredNotice locale={locale} merchantName={merchantName} target={view.expiredTarget} />
        ) : null}
        {mode === "finished" ? (
          <div className="flex flex-col gap-4">
            <StatusBanner tone="info">{t("finishedBody")}</StatusBanner>
            {view.outcomeLink ? <ButtonLink href={view.outcomeLink}>{t("seeOutcome")}</ButtonLink> : null}
          </div>
        ) : null}
        {mode === "no_methods" ? (
          <StatusBanner tone="warning">{t("noMethods", { merchant: merchantName })}</StatusBanner>
        ) : null}
        {mode === "error" || notice === "error" ? (
          <StatusBanner tone="error" role="alert">
            {t("error")}
          </StatusBanner>
        ) : null}
        {form ? (
          <form method="post" action={checkoutFormPath({ locale, paymentId })} className="flex flex-col gap-5">
            <input type="hidden" name="token" value={form.token} />
            <input type="hidden" name={FORM_TOKEN_FIELD} value={form.formToken} />
            {form.returnUrl ? <input type="hidden" name="returnUrl" value={form.returnUrl} /> : null}
            <MethodChoice
              locale={locale}
              methods={form.methods}
              error={
                notice === "choose_method"
                  ? t("chooseMethod")
                  : notice === "method_unavailable"
                    ? t("methodUnavailable")
                    : null
              }
            />
            <Button type="submit">{t("continue")}</Button>
          </form>
        ) : null}
        {view.shopLink ? (
          <ButtonLink variant="quiet" href={view.shopLink}>
            {t("backToShop", { merchant: merchantName })}
          </ButtonLink>
        ) : null}
      </CardShell>
    ),
  };
}

export const checkoutPage: HostedPage = { render };
