import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import type { RedirectPage } from "../../payment-methods/contract/redirect-provider";
import { REDIRECT_NOTICES, redirectPayFormPath, returnPagePath, type RedirectNotice } from "../../urls/hosted-urls";
import { notAwaitingBuyerPageMode } from "../hosted-outcome";
import type { HostedPageQuery } from "../hosted-page-query";
import { createAntiBotChallenge, type AntiBotChallenge, type AntiBotResult } from "../anti-bot/anti-bot-check";
import { hostedFormToken } from "../hosted-form-route";
import { asksBuyerChecks } from "../redirect-form";
import { loadHostedPayment } from "../load-hosted-payment";
import { expiredReturnTarget } from "../resolve-return-target";
import { amountDisplayFields } from "./amount-display-fields";
import { CATALOG_DEFAULTS } from "../../payment-methods/codes/catalog-defaults";
import { notFoundOrToReturnPage, type PageRedirectOrNotFound } from "./page-redirect-or-not-found";
import { payWithRedirect } from "../../payments/hosted/redirect-payment";

/** Everything the page before a redirect method's provider renders (contract 15), decided here. */
export type RedirectPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      mode: "pay" | "expired";
      merchantName: string;
      amount: number;
      currency: string;
      /** The method's logo on the Pay button, and the words naming its provider (messages "redirect"). */
      logoPath: string;
      words: RedirectWords;
      notice: RedirectNotice | null;
      form: { action: string; token: string; returnUrl?: string; formToken: string } | null;
      /** SATIM's checklist before Pay (null for a method that asks none, and with no form). */
      buyerChecks: BuyerChecksView | null;
      /**
       * A provider the browser reaches by posting a signed form (CMI): Pay posts these fields
       * straight to the provider.
       */
      providerForm: { action: string; fields: Record<string, string> } | null;
      /** Where "expired" sends the buyer back to the shop (null: nowhere trusted). */
      expiredTarget: string | null;
    };

/** The terms checkbox and the anti-bot check of the form, with why the last post came back, if it did. */
export interface BuyerChecksView {
  /** The merchant's terms of payment (its setting), linked beside the checkbox; null: the box alone. */
  termsUrl: string | null;
  termsRefused: boolean;
  antiBot: AntiBotChallenge;
  antiBotFailure: Extract<AntiBotResult, { passed: false }>["reason"] | null;
  /** The sandbox says which code always passes (contract 15: 123456); production never does. */
  sandbox: boolean;
}

const TERMS_REFUSED: readonly RedirectNotice[] = ["terms_required", "checks_failed"];
const ANTI_BOT_FAILURE: Partial<Record<RedirectNotice, "failed" | "expired">> = {
  anti_bot_failed: "failed",
  checks_failed: "failed",
  anti_bot_expired: "expired",
};

/**
 * What the page says of the method's provider (its intro and its logo's name): keys under
 * `redirect` its RedirectProvider declares.
 */
export type RedirectWords = RedirectPage["words"];

const isNotice = (value: string | undefined): value is RedirectNotice =>
  (REDIRECT_NOTICES as readonly string[]).includes(value ?? "");

/** GET /{locale}/pay/redirect/{paymentId}: the merchant, the amount, and Pay with the method's logo. */
export async function getRedirectPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<RedirectPageView> {
  const { locale, paymentId, query } = options;
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) return { kind: "not_found" };
  const { payment } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };
  if (payment.state !== "REQUIRES_ACTION") return notFoundOrToReturnPage(notAwaitingBuyerPageMode(payment.state), link);
  const method = paymentMethodOf(payment.paymentMethodCode);
  const provider = method?.hostedStep === "redirect" ? method.redirect : null;
  if (!provider) return { kind: "not_found" };
  const expired = payment.expired;
  let notice: RedirectNotice | null = isNotice(query.notice) ? query.notice : null;
  const buyerChecks: BuyerChecksView | null =
    !expired && asksBuyerChecks(payment.paymentMethodCode)
      ? {
          termsUrl: payment.termsUrl,
          termsRefused: notice !== null && TERMS_REFUSED.includes(notice),
          antiBot: await createAntiBotChallenge(db),
          antiBotFailure: notice === null ? null : (ANTI_BOT_FAILURE[notice] ?? null),
          sandbox: getConfig().isSandbox,
        }
      : null;
  // CMI: nothing to ask the provider before Pay, so the order is named and its form signed now;
  // Pay posts it to the provider's own page, without any script.
  let providerForm: { action: string; fields: Record<string, string> } | null = null;
  if (!expired && provider.browserForm) {
    const started = await payWithRedirect(db, { paymentId, token: link.token, locale });
    if (started.kind === "go" && started.form) providerForm = started.form;
    else if (started.kind === "not_waiting") return { kind: "redirect", location: returnPagePath(link) };
    else if (started.kind === "invalid_link") return { kind: "not_found" };
    else notice = started.kind === "unavailable" ? "provider_unavailable" : "provider_refused";
  }
  return {
    kind: "render",
    mode: expired ? "expired" : "pay",
    ...amountDisplayFields(payment),
    logoPath:
      CATALOG_DEFAULTS.find((row) => row.code === payment.paymentMethodCode)?.imagePath ??
      "/payment-methods/cib-edahabia.svg",
    words: provider.page.words,
    notice,
    providerForm,
    form:
      expired || provider.browserForm
        ? null
        : {
            action: redirectPayFormPath(link),
            token: link.token,
            returnUrl: query.returnUrl,
            formToken: await hostedFormToken(db, "redirect", link.token),
          },
    expiredTarget: expired
      ? expiredReturnTarget({
          paymentId,
          redirectUrl: payment.redirectUrl,
          serviceRedirectUrl: payment.serviceRedirectUrl,
          allowedOrigins: payment.allowedOrigins,
        })
      : null,
    buyerChecks,
  };
}
