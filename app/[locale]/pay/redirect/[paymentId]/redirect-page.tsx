import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { AmountDisplay } from "@/components/amount-display";
import { AntiBotCheck } from "@/components/anti-bot-check";
import { ButtonLink } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { StatusBanner } from "@/components/status-banner";
import { TermsCheckbox } from "@/components/terms-checkbox";
import { getDb } from "@/lib/db/client";
import { FORM_TOKEN_FIELD } from "@/lib/hosted/hosted-form-route";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getRedirectPageView } from "@/lib/hosted/views/redirect-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

// The buyer's checks (SATIM) say what failed beside the field; the banner only says nothing was charged.
const NOTICE_KEYS = {
  provider_unavailable: "providerUnavailable",
  provider_refused: "providerRefused",
  checks_failed: "checksRefused",
  terms_required: "checksRefused",
  anti_bot_failed: "checksRefused",
  anti_bot_expired: "checksRefused",
} as const;

/** GET /{locale}/pay/redirect/{paymentId}?token=...: the page before the provider's (contract 15). */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getRedirectPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);
  const t = translator(locale, "redirect");
  const merchant = view.merchantName;
  const payButton = (
    <button
      type="submit"
      className={
        "inline-flex min-h-12 w-full items-center justify-center gap-3 rounded-lg bg-emerald-700 px-4 py-3 " +
        "text-base font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 " +
        "focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      }
    >
      {/* The logo's name is part of the button's: "Pay 150.00 DZD CIB and EDAHABIA". */}
      <span>{t("pay", { amount: formatAmount({ amount: view.amount, currency: view.currency, locale }) })}</span>
      <img
        src={view.logoPath}
        alt={t(view.words.logoAlt)}
        width={72}
        height={30}
        className="h-7 w-auto rounded bg-white"
      />
    </button>
  );

  return {
    kind: "page",
    head: { title: translator(locale, "redirect")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("redirect", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {view.mode === "expired" ? t("expiredTitle") : t("title")}
          </h1>
          {view.mode === "pay" ? <p className="text-slate-700">{t(view.words.intro)}</p> : null}
        </div>
        <AmountDisplay
          locale={locale}
          merchantName={merchant}
          amount={view.amount}
          currency={view.currency}
          amountLabel={t("amountLabel")}
        />
        {view.notice ? <StatusBanner tone="warning">{t(NOTICE_KEYS[view.notice], { merchant })}</StatusBanner> : null}
        {view.providerForm ? (
          // CMI: Pay posts the order's signed fields straight to the provider's page (no script needed).
          <form method="post" action={view.providerForm.action} className="flex flex-col gap-4">
            {Object.entries(view.providerForm.fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            {payButton}
          </form>
        ) : view.form ? (
          <form method="post" action={view.form.action} className="flex flex-col gap-4">
            <input type="hidden" name="token" value={view.form.token} />
            {view.form.returnUrl ? <input type="hidden" name="returnUrl" value={view.form.returnUrl} /> : null}
            <input type="hidden" name={FORM_TOKEN_FIELD} value={view.form.formToken} />
            {/* SATIM's checklist (contract 15): the terms of payment and the anti-bot check before Pay;
                lib/hosted/redirect-form.ts (buyerChecksPassed) decides. */}
            {view.buyerChecks ? (
              <>
                <TermsCheckbox
                  locale={locale}
                  termsUrl={view.buyerChecks.termsUrl}
                  refused={view.buyerChecks.termsRefused}
                />
                <AntiBotCheck
                  locale={locale}
                  check={view.buyerChecks.antiBot}
                  failure={view.buyerChecks.antiBotFailure}
                  sandbox={view.buyerChecks.sandbox}
                />
              </>
            ) : null}
            {payButton}
          </form>
        ) : view.expiredTarget ? (
          <ButtonLink href={view.expiredTarget}>{t("backToShop", { merchant })}</ButtonLink>
        ) : null}
      </CardShell>
    ),
  };
}

export const redirectPage: HostedPage = { render };
