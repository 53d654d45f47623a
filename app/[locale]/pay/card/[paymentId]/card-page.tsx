import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { AmountDisplay } from "@/components/amount-display";
import { ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { StatusBanner } from "@/components/status-banner";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getCardPageView } from "@/lib/hosted/views/card-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { CardForm } from "./card-form";
import { cardFormText } from "./card-form-text";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/** GET /{locale}/pay/card/{paymentId}?token=...: the buyer pays a CARD_PROVIDER payment. */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getCardPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);
  const { mode, form } = view;

  const t = translator(locale, "card");
  const tOtp = translator(locale, "otp");
  const tReturn = translator(locale, "return");
  const text = form
    ? cardFormText(
        locale,
        t("payAmount", { amount: formatAmount({ amount: view.amount, currency: view.currency, locale }) }),
      )
    : null;

  return {
    kind: "page",
    head: { title: translator(locale, "card")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("card", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {mode === "expired" ? tOtp("expiredTitle") : t("title")}
          </h1>
          {mode === "enter_card" ? <p className="text-slate-700">{t("intro")}</p> : null}
        </div>
        <AmountDisplay locale={locale} merchantName={view.merchantName} amount={view.amount} currency={view.currency} />
        {mode === "expired" ? (
          <div className="flex flex-col gap-4">
            <StatusBanner tone="warning">{tOtp("expiredBody", { merchant: view.merchantName })}</StatusBanner>
            {view.expiredTarget ? (
              <ButtonLink href={view.expiredTarget}>{tReturn("continue", { merchant: view.merchantName })}</ButtonLink>
            ) : null}
          </div>
        ) : mode === "verify" ? (
          <div className="flex flex-col gap-4">
            <StatusBanner tone="info">{t("verificationPending")}</StatusBanner>
            <ButtonLink href={view.verifyUrl!}>{t("continueVerification")}</ButtonLink>
          </div>
        ) : (
          <>
            {/* Card entry runs in the provider's script: without it, say so and offer the way back. */}
            <noscript>
              <div className="flex flex-col gap-4">
                <StatusBanner tone="warning" title={t("noScriptTitle")}>
                  {t("noScriptBody", { merchant: view.merchantName })}
                </StatusBanner>
                {view.shopLink ? (
                  <ButtonLink href={view.shopLink}>{t("noScriptBack", { merchant: view.merchantName })}</ButtonLink>
                ) : null}
              </div>
            </noscript>
            <CardForm
              savedCards={form!.savedCards.map(({ id, brand, last4, expiry }) => ({
                id,
                label: t("savedCard", { brand, last4 }),
                description: expiry ? t("savedCardExpiry", expiry) : undefined,
                badge: brand,
              }))}
              checkedCardId={form!.checkedCardId}
              text={text!.form}
              island={{
                locale,
                confirmation: form!.confirmation,
                completeUrl: form!.completeUrl,
                savedCards: form!.savedCards.map(({ id, paymentMethodId }) => ({ id, paymentMethodId })),
                text: text!.island,
              }}
            />
          </>
        )}
      </CardShell>
    ),
  };
}

export const cardPage: HostedPage = { render };
