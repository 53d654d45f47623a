import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { StatusBanner } from "@/components/status-banner";
import { getDb } from "@/lib/db/client";
import { isLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { isCodeExpired, otpPageMode, resendCountdown } from "@/lib/hosted/hosted-outcome";
import { returnPagePath } from "@/lib/hosted/hosted-paths";
import { loadHostedPayment } from "@/lib/hosted/load-hosted-payment";
import { resolveReturnTarget } from "@/lib/hosted/resolve-return-target";
import { OtpForm } from "./otp-form";

interface OtpPageProps {
  params: Promise<{ locale: string; paymentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: OtpPageProps): Promise<Metadata> {
  const { locale } = await params;
  if (!isLocale(locale)) return {};
  const t = await getTranslations({ locale, namespace: "otp" });
  return { title: t("title") };
}

/** GET /{locale}/pay/otp/{paymentId}?token=...&returnUrl=...: the buyer confirms a wallet payment. */
export default async function OtpPage({ params, searchParams }: OtpPageProps) {
  const { locale, paymentId } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const query = hostedPageQuery(await searchParams);
  const loaded = await loadHostedPayment(await getDb(), { paymentId, token: query.token });
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
          body={t("expiredBody", { merchant: payment.merchantName })}
          // Still open for a few seconds until the expiry sweep fails it (contract 4): the
          // merchant is told 3, which Check confirms once the sweep has run.
          target={resolveReturnTarget({
            paymentId,
            statusCode: 3,
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
          resendInSeconds={resendCountdown(payment, now) ?? 0}
          codeExpired={isCodeExpired(payment, now)}
        />
      )}
    </CardShell>
  );
}

async function ExpiredNotice({
  locale,
  body,
  target,
  merchantName,
}: {
  locale: Locale;
  body: string;
  target: string | null;
  merchantName: string;
}) {
  const t = await getTranslations({ locale, namespace: "return" });
  return (
    <div className="flex flex-col gap-4">
      <StatusBanner tone="warning">{body}</StatusBanner>
      {target ? <ButtonLink href={target}>{t("continue", { merchant: merchantName })}</ButtonLink> : null}
    </div>
  );
}
