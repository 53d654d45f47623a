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
import { ExpiredNotice } from "@/components/expired-notice";
import { getDb } from "@/lib/db/client";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getQrPageView } from "@/lib/hosted/views/qr-page-view";
import { POLL_MAX_DELAY_MS } from "@/lib/hosted/hosted-timing";
import { QrStatus } from "./qr-status";
import { pagePathWithoutLocale } from "@/lib/urls/hosted-urls";

/**
 * GET /{locale}/pay/qr/{paymentId}?token=...&returnUrl=...: the QR code the buyer scans with the
 * wallet app; the page follows the payment by itself and moves on to the return page.
 */
async function render({ locale, params, query: searchParams }: HostedPageRequest): Promise<HostedPageAnswer> {
  const paymentId = params.paymentId!;
  const query = hostedPageQuery(searchParams);
  const view = await getQrPageView(await getDb(), { locale, paymentId, query });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);
  const { mode, links } = view;
  const merchant = view.merchantName;

  const t = translator(locale, "qr");
  const tOtp = translator(locale, "otp");

  return {
    kind: "page",
    head: { title: translator(locale, "qr")("title") },
    element: (
      <CardShell locale={locale} path={pagePathWithoutLocale("qr", paymentId)} search={query.search}>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {mode === "expired" ? tOtp("expiredTitle") : t("title")}
          </h1>
          {mode === "show_code" ? <p className="text-slate-700">{t("intro")}</p> : null}
        </div>
        <AmountDisplay locale={locale} merchantName={merchant} amount={view.amount} currency={view.currency} />
        {mode === "expired" ? (
          <ExpiredNotice locale={locale} merchantName={merchant} target={view.expiredTarget} />
        ) : (
          <>
            <div className="flex justify-center">
              {/* A plain img: the PNG comes from our own API, already sized; there is nothing to optimise. */}
              <img
                src={links.image}
                alt={t("imageAlt")}
                width={240}
                height={240}
                // The page's largest element: fetched first, before any script.
                fetchPriority="high"
                className="size-60 rounded-xl bg-white ring-1 ring-slate-200"
              />
            </div>
            {/* Without script, the page reloads itself; the server sends a finished payment on. */}
            <noscript>
              <meta httpEquiv="refresh" content={String(POLL_MAX_DELAY_MS / 1000)} />
              <p className="text-center text-sm text-slate-700">{t("noScript")}</p>
            </noscript>
            <QrStatus
              statusPath={links.status}
              returnPath={links.returnPage}
              labels={{
                waiting: t("waiting"),
                successful: t("successful"),
                authorized: t("authorized"),
                failed: t("failed"),
                expired: t("expired"),
                finished: t("finished"),
                moving: t("moving"),
              }}
            />
            {links.walletApp ? (
              <div className="flex flex-col gap-3 border-t border-slate-200 pt-5">
                <p className="text-sm text-slate-700">{t("sandboxHint")}</p>
                <ButtonLink variant="secondary" href={links.walletApp} target="_blank" rel="noopener">
                  {t("openWalletApp")}
                </ButtonLink>
              </div>
            ) : null}
          </>
        )}
      </CardShell>
    ),
  };
}

export const qrPage: HostedPage = { render };
