import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { CardShell } from "@/components/card-shell";
import { ButtonLink } from "@/components/button";
import { ExpiredNotice } from "@/components/expired-notice";
import { getDb } from "@/lib/db/client";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { openHostedPage, type HostedPageProps } from "@/lib/hosted/open-hosted-page";
import { isCodeExpired, otpPageMode, resendCountdown } from "@/lib/hosted/hosted-outcome";
import { hostedFormToken } from "@/lib/hosted/hosted-form-route";
import { OTP_NOTICES, returnPagePath, type OtpNotice } from "@/lib/hosted/hosted-paths";
import { loadHostedPayment } from "@/lib/hosted/load-hosted-payment";
import { expiredReturnTarget, resolveReturnTarget } from "@/lib/hosted/resolve-return-target";
import { OtpForm } from "./otp-form";

export const generateMetadata = titleFromMessages("otp");

/** GET /{locale}/pay/otp/{paymentId}?token=...&returnUrl=...: the buyer confirms a wallet payment. */
export default async function OtpPage(props: HostedPageProps) {
  const { locale, paymentId, query } = await openHostedPage(props);
  const db = await getDb();
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) notFound();
  const { payment, now } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };

  const mode = otpPageMode({ state: payment.state, expired: payment.expired, hasOtp: payment.otp !== null });
  switch (mode) {
    case "unavailable":
      notFound();
    case "finished":
      redirect(returnPagePath(link));
    case "expired":
    case "enter_code":
      break;
  }

  const t = await getTranslations({ locale, namespace: "otp" });
  const notice = (OTP_NOTICES as readonly string[]).includes(query.notice ?? "") ? (query.notice as OtpNotice) : null;
  // Before paying, the buyer may still change their mind and go back to the shop.
  const shop =
    mode === "enter_code"
      ? resolveReturnTarget({
          paymentId,
          statusCode: payment.statusCode,
          returnUrl: query.returnUrl,
          serviceRedirectUrl: payment.serviceRedirectUrl,
          allowedOrigins: payment.allowedOrigins,
        })
      : null;
  return (
    <CardShell locale={locale} path={`/pay/otp/${paymentId}`} search={query.search}>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{mode === "expired" ? t("expiredTitle") : t("title")}</h1>
        {mode === "enter_code" ? <p className="text-slate-700">{t("intro")}</p> : null}
      </div>
      <AmountDisplay locale={locale} merchantName={payment.merchantName} amount={payment.amount} currency={payment.currency} />
      {mode === "expired" ? (
        <ExpiredNotice
          locale={locale}
          merchantName={payment.merchantName}
          target={expiredReturnTarget({
            paymentId,
            serviceRedirectUrl: payment.serviceRedirectUrl,
            returnUrl: query.returnUrl,
            allowedOrigins: payment.allowedOrigins,
          })}
        />
      ) : (
        <OtpForm
          paymentId={paymentId}
          token={link.token}
          locale={locale}
          returnUrl={query.returnUrl}
          formToken={await hostedFormToken(db, "otp", link.token)}
          resendInSeconds={resendCountdown(payment, now) ?? 0}
          codeExpired={isCodeExpired(payment, now)}
          attemptsLeft={payment.otp?.attemptsLeft ?? 0}
          notice={notice}
        />
      )}
      {shop ? (
        <ButtonLink variant="quiet" href={shop}>
          {t("backToShop", { merchant: payment.merchantName })}
        </ButtonLink>
      ) : null}
    </CardShell>
  );
}
