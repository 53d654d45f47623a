import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AmountDisplay } from "@/components/amount-display";
import { ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { CheckCircleIcon, ClockIcon, InfoIcon, XCircleIcon } from "@/components/icons";
import { getDb } from "@/lib/db/client";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { openHostedPage, type HostedPageProps } from "@/lib/hosted/open-hosted-page";
import { leavesForMerchant, returnOutcome, type ReturnOutcome } from "@/lib/hosted/hosted-outcome";
import { cardPagePath } from "@/lib/hosted/card-page";
import { otpPagePath, qrPagePath } from "@/lib/hosted/hosted-paths";
import { loadHostedPayment } from "@/lib/hosted/load-hosted-payment";
import { explainReturnTarget, logIgnoredReturnUrl } from "@/lib/hosted/resolve-return-target";
import { getConfig } from "@/lib/config";
import { FAILURE_REASON } from "@/lib/payments/payment-messages";
import { REDIRECT_DELAY_MS } from "@/lib/hosted/hosted-timing";
import { ReturnRedirect } from "./return-redirect";

export const generateMetadata = titleFromMessages("return");

const outcomeLook: Record<ReturnOutcome, { Icon: typeof InfoIcon; tone: string }> = {
  successful: { Icon: CheckCircleIcon, tone: "bg-emerald-100 text-emerald-700" },
  authorized: { Icon: CheckCircleIcon, tone: "bg-emerald-100 text-emerald-700" },
  failed: { Icon: XCircleIcon, tone: "bg-rose-100 text-rose-700" },
  canceled: { Icon: InfoIcon, tone: "bg-slate-100 text-slate-700" },
  refunded: { Icon: InfoIcon, tone: "bg-slate-100 text-slate-700" },
  pending: { Icon: ClockIcon, tone: "bg-amber-100 text-amber-700" },
};

// Card failures whose reason the page names, as check's endUserMessage does.
const CARD_FAILURES = new Set<string>([FAILURE_REASON.cardDeclined, FAILURE_REASON.cardInsufficientFunds, FAILURE_REASON.cardAuthenticationFailed]);
type CardFailure = "card_declined" | "card_insufficient_funds" | "card_authentication_failed";

// Outcomes whose wording speaks of a wallet; a card payment has its own sentence for them.
type CardWorded = "authorized" | "pending" | "canceled" | "refunded";
const CARD_WORDING = new Set<string>(["authorized", "pending", "canceled", "refunded"] satisfies CardWorded[]);

/**
 * GET /{locale}/pay/return/{paymentId}?token=...&returnUrl=...: the outcome, then on to the
 * merchant (contract 8) with paymentId and statusCode.
 */
export default async function ReturnPage(props: HostedPageProps) {
  const { locale, paymentId, query } = await openHostedPage(props);
  const loaded = await loadHostedPayment(await getDb(), { paymentId, token: query.token });
  if (!loaded) notFound();
  const { payment } = loaded;

  const outcome = returnOutcome(payment.state);
  const { target, ignored } = leavesForMerchant(outcome)
    ? explainReturnTarget({
        paymentId,
        statusCode: payment.statusCode,
        returnUrl: query.returnUrl,
        redirectUrl: payment.redirectUrl,
        serviceRedirectUrl: payment.serviceRedirectUrl,
        allowedOrigins: payment.allowedOrigins,
      })
    : { target: null, ignored: null };
  if (ignored) logIgnoredReturnUrl(paymentId, ignored);
  const t = await getTranslations({ locale, namespace: "return" });
  const tc = await getTranslations({ locale, namespace: "common" });
  const tOtp = await getTranslations({ locale, namespace: "otp" });
  const { Icon, tone } = outcomeLook[outcome];
  const merchant = payment.merchantName;
  const card = payment.paymentMethodCode === "CARD_PROVIDER";
  const qr = payment.transactionType === "QR_CODE";

  return (
    <CardShell locale={locale} path={`/pay/return/${paymentId}`} search={query.search}>
      <div className="flex flex-col items-center gap-3 text-center">
        <span className={`inline-flex size-14 items-center justify-center rounded-full ${tone}`}>
          <Icon className="size-8" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t(outcome)}</h1>
        <p className="text-slate-700">
          {/* A payment that ran out of time says so: the buyer did nothing wrong. */}
          {outcome === "failed" && payment.expired
            ? tOtp("expiredBody", { merchant })
            : outcome === "failed" && card && CARD_FAILURES.has(payment.failureReason ?? "")
              ? t(`failedBodyCard_${payment.failureReason as CardFailure}`, { merchant })
              : qr && outcome === "pending"
              ? t("pendingBodyQr")
              : card && CARD_WORDING.has(outcome)
              ? t(`${outcome}BodyCard` as `${CardWorded}BodyCard`, { merchant })
              : t(`${outcome}Body`, { merchant })}
        </p>
      </div>
      <AmountDisplay locale={locale} merchantName={merchant} amount={payment.amount} currency={payment.currency} />
      {/* Label and id on their own lines: no colon to localize, and the id never splits across directions. */}
      <div className="flex flex-col gap-0.5 text-xs">
        <span className="text-slate-600">{tc("reference")}</span>
        {/* self-start: the id sits under its label on the reading side (right in Arabic). */}
        <bdi className="self-start font-mono break-all text-slate-800">{paymentId}</bdi>
      </div>
      {outcome === "pending" ? (
        qr ? (
          <ButtonLink href={qrPagePath({ locale, paymentId, token: query.token!, returnUrl: query.returnUrl })}>
            {t("pendingActionQr")}
          </ButtonLink>
        ) : card ? (
          <ButtonLink href={cardPagePath({ locale, paymentId, token: query.token! })}>{t("pendingActionCard")}</ButtonLink>
        ) : (
          <ButtonLink href={otpPagePath({ locale, paymentId, token: query.token!, returnUrl: query.returnUrl })}>
            {t("pendingAction")}
          </ButtonLink>
        )
      ) : target ? (
        <>
          {/* Without script the browser moves on by itself; with it, ReturnRedirect does (and can stay). */}
          {query.stay ? null : (
            <noscript>
              <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=${target}`} />
            </noscript>
          )}
          <ReturnRedirect
          href={target}
          initiallyStaying={query.stay}
          stayQuery={Object.fromEntries(
            Object.entries({ token: query.token, returnUrl: query.returnUrl }).filter((entry): entry is [string, string] => entry[1] !== undefined),
          )}
          labels={{
            redirecting: t("redirecting", { merchant }),
            continue: t("continue", { merchant }),
            stay: t("stay"),
            stayed: t("stayed", { merchant }),
          }}
        />
        </>
      ) : (
        <p className="text-center text-sm text-slate-700">{t("noTarget")}</p>
      )}
      {ignored && getConfig().isSandbox ? (
        <p role="note" className="rounded-md bg-amber-50 p-3 text-xs text-amber-900">
          {ignored.origin ? t("ignoredReturnUrl", { field: ignored.field, origin: ignored.origin }) : t("invalidReturnUrl", { field: ignored.field })}
        </p>
      ) : null}
    </CardShell>
  );
}
