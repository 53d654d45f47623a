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
import { ProviderSupport } from "@/components/provider-support";
import { ReceiptPanel } from "@/components/receipt-panel";
import { CheckCircleIcon, ClockIcon, InfoIcon, XCircleIcon } from "@/components/icons";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import type { ReturnOutcome } from "@/lib/hosted/hosted-outcome";
import { REDIRECT_DELAY_MS } from "@/lib/hosted/hosted-timing";
import { getReturnPageView } from "@/lib/hosted/views/return-page-view";
import { ReturnRedirect } from "./return-redirect";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

const outcomeLook: Record<ReturnOutcome, { Icon: typeof InfoIcon; tone: string }> = {
  successful: { Icon: CheckCircleIcon, tone: "bg-emerald-100 text-emerald-700" },
  authorized: { Icon: CheckCircleIcon, tone: "bg-emerald-100 text-emerald-700" },
  failed: { Icon: XCircleIcon, tone: "bg-rose-100 text-rose-700" },
  canceled: { Icon: InfoIcon, tone: "bg-slate-100 text-slate-700" },
  refunded: { Icon: InfoIcon, tone: "bg-slate-100 text-slate-700" },
  pending: { Icon: ClockIcon, tone: "bg-amber-100 text-amber-700" },
};

/**
 * GET /{locale}/pay/return/{paymentId}?token=...&returnUrl=...: the outcome, then on to the
 * merchant (contract 8) with paymentId and statusCode.
 */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getReturnPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;

  const t = translator(locale, "return");
  const tc = translator(locale, "common");
  const tOtp = translator(locale, "otp");
  const { Icon, tone } = outcomeLook[view.outcome];
  const merchant = view.merchantName;
  const { next, ignoredReturnUrl: ignored } = view;

  return {
    kind: "page",
    head: { title: translator(locale, "return")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("return", paymentId)} search={query.search}>
        <div className="flex flex-col items-center gap-3 text-center">
          <span className={`inline-flex size-14 items-center justify-center rounded-full ${tone}`}>
            <Icon className="size-8" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t(view.outcome)}</h1>
          <p className="text-slate-700">
            {view.body.namespace === "otp" ? tOtp(view.body.key, { merchant }) : t(view.body.key, { merchant })}
          </p>
        </div>
        <AmountDisplay locale={locale} merchantName={merchant} amount={view.amount} currency={view.currency} />
        {/* Label and id on their own lines: no colon to localize, and the id never splits across directions. */}
        <div className="flex flex-col gap-0.5 text-xs">
          <span className="text-slate-600">{tc("reference")}</span>
          {/* self-start: the id sits under its label on the reading side (right in Arabic). */}
          <bdi className="self-start font-mono break-all text-slate-800">{paymentId}</bdi>
        </div>
        {next.kind === "retry" ? (
          <ButtonLink href={next.href}>{t(next.label)}</ButtonLink>
        ) : next.kind === "leave" && !next.movesOn ? (
          // A redirect method's return page stays (contract 15): the buyer leaves by the link.
          <ButtonLink href={next.target}>{t("continue", { merchant })}</ButtonLink>
        ) : next.kind === "leave" ? (
          <>
            {/* Without script the browser moves on by itself; with it, the return-redirect island does
                (and can stay). */}
            {next.staying ? null : (
              <noscript>
                <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=${next.target}`} />
              </noscript>
            )}
            <ReturnRedirect
              href={next.target}
              initiallyStaying={next.staying}
              stayQuery={next.stayQuery}
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
        {view.providerSupport ? <ProviderSupport locale={locale} support={view.providerSupport} /> : null}
        {view.receipt ? <ReceiptPanel locale={locale} receipt={view.receipt} /> : null}
        {ignored ? (
          <p role="note" className="rounded-md bg-amber-50 p-3 text-xs text-amber-900">
            {ignored.origin
              ? t("ignoredReturnUrl", { field: ignored.field, origin: ignored.origin })
              : t("invalidReturnUrl", { field: ignored.field })}
          </p>
        ) : null}
      </CardShell>
    ),
  };
}

export const returnPage: HostedPage = { render };
