import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { StatusBanner } from "@/components/status-banner";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { cardPageMode } from "@/lib/hosted/card-page";
import { openHostedPage, type HostedPageProps } from "@/lib/hosted/open-hosted-page";
import { returnPagePath, cardCompletePath } from "@/lib/urls/hosted-urls";
import { expiredReturnTarget, resolveReturnTarget } from "@/lib/hosted/resolve-return-target";
import { formatAmount } from "@/lib/i18n/format-amount";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { getCardPage } from "@/lib/payments/hosted/get-card-page";
import { brandName } from "@/lib/validation/card-number";
import { CardForm } from "./card-form";
import { cardFormText } from "./card-form-text";

export const generateMetadata = titleFromMessages("card");

/** GET /{locale}/pay/card/{paymentId}?token=...: the buyer pays a CARD_PROVIDER payment. */
export default async function CardPage(props: HostedPageProps) {
  const { locale, paymentId, query } = await openHostedPage(props);
  if (!query.token) notFound();
  const view = await getCardPage(await getDb(), { paymentId, token: query.token });
  if (!view) notFound();
  const { payment, confirmation } = view;
  const link = { locale, paymentId, token: query.token, returnUrl: query.returnUrl };

  const mode = cardPageMode({
    state: payment.state,
    expired: payment.expired,
    paymentMethodCode: payment.paymentMethodCode,
    hasConfirmation: confirmation !== null,
    nextActionUrl: confirmation?.nextActionUrl ?? null,
    answeredProviderIntentId: view.answeredProviderIntentId,
  });
  switch (mode) {
    case "unavailable":
      notFound();
    case "finished":
      redirect(returnPagePath(link));
    case "complete":
      redirect(`${cardCompletePath(link)}&payment_intent=${encodeURIComponent(view.answeredProviderIntentId!)}`);
    case "expired":
    case "verify":
    case "enter_card":
      break;
  }

  const t = await getTranslations({ locale, namespace: "card" });
  const tOtp = await getTranslations({ locale, namespace: "otp" });
  const tReturn = await getTranslations({ locale, namespace: "return" });
  const shop =
    mode === "enter_card"
      ? resolveReturnTarget({
          paymentId,
          statusCode: payment.statusCode,
          redirectUrl: payment.redirectUrl,
          serviceRedirectUrl: payment.serviceRedirectUrl,
          allowedOrigins: payment.allowedOrigins,
        })
      : null;
  const expiredTarget =
    mode === "expired"
      ? expiredReturnTarget({
          paymentId,
          redirectUrl: payment.redirectUrl,
          serviceRedirectUrl: payment.serviceRedirectUrl,
          allowedOrigins: payment.allowedOrigins,
        })
      : null;

  return (
    <CardShell locale={locale} path={`/pay/card/${paymentId}`} search={query.search}>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{mode === "expired" ? tOtp("expiredTitle") : t("title")}</h1>
        {mode === "enter_card" ? <p className="text-slate-700">{t("intro")}</p> : null}
      </div>
      <AmountDisplay locale={locale} merchantName={payment.merchantName} amount={payment.amount} currency={payment.currency} />
      {mode === "expired" ? (
        <div className="flex flex-col gap-4">
          <StatusBanner tone="warning">{tOtp("expiredBody", { merchant: payment.merchantName })}</StatusBanner>
          {expiredTarget ? <ButtonLink href={expiredTarget}>{tReturn("continue", { merchant: payment.merchantName })}</ButtonLink> : null}
        </div>
      ) : mode === "verify" ? (
        <div className="flex flex-col gap-4">
          <StatusBanner tone="info">{t("verificationPending")}</StatusBanner>
          <ButtonLink href={confirmation!.nextActionUrl!}>{t("continueVerification")}</ButtonLink>
        </div>
      ) : (
        <>
        {/* Card entry runs in the provider's script: without it, say so and offer the way back. */}
        <noscript>
          <div className="flex flex-col gap-4">
            <StatusBanner tone="warning" title={t("noScriptTitle")}>
              {t("noScriptBody", { merchant: payment.merchantName })}
            </StatusBanner>
            {shop ? <ButtonLink href={shop}>{t("noScriptBack", { merchant: payment.merchantName })}</ButtonLink> : null}
          </div>
        </noscript>
        <CardForm
          locale={locale}
          confirmation={{
            stripeJsUrl: confirmation!.stripeJsUrl,
            publishableKey: confirmation!.publishableKey,
            clientSecret: confirmation!.clientSecret,
          }}
          // The provider sends the buyer back to the gateway's public address only.
          completeUrl={`${getConfig().publicBaseUrl}${cardCompletePath(link)}`}
          savedCards={view.savedCards.map(({ id, brand, last4, expMonth, expYear, paymentMethodId }) => ({
            id,
            label: t("savedCard", { brand: brandName(brand), last4 }),
            description:
              expMonth && expYear ? t("savedCardExpiry", { month: String(expMonth).padStart(2, "0"), year: String(expYear).slice(-2) }) : undefined,
            badge: brandName(brand),
            paymentMethodId,
          }))}
          checkedCardId={view.checkedCardId}
          text={await cardFormText(
            locale,
            t("payAmount", { amount: formatAmount({ amount: payment.amount, currency: payment.currency, locale }) }),
          )}
        />
        </>
      )}
    </CardShell>
  );
}
