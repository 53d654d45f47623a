import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { REDIRECT_NOTICES, redirectPayFormPath, type RedirectNotice } from "../../urls/hosted-urls";
import { notAwaitingBuyerPageMode } from "../hosted-outcome";
import type { HostedPageQuery } from "../hosted-page-query";
import { hostedFormToken } from "../hosted-form-route";
import { loadHostedPayment } from "../load-hosted-payment";
import { expiredReturnTarget } from "../resolve-return-target";
import { amountShown } from "./amount-shown";
import { CATALOG_DEFAULTS } from "../../payment-methods/codes/catalog-defaults";
import { pageElsewhere, type PageElsewhere } from "./page-elsewhere";

/** Everything the page before a redirect method's provider renders (contract 15), decided here. */
export type RedirectPageView =
  | PageElsewhere
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
      /** Where "expired" sends the buyer back to the shop (null: nowhere trusted). */
      expiredTarget: string | null;
    };

/** What the page says of each redirect method's provider (its intro and its logo's name). */
export type RedirectWords = { intro: "intro" | "introClictopay" | "introChargily"; logoAlt: "logoAlt" | "logoAltClictopay" | "logoAltChargily" };
const WORDS_OF_METHOD: Record<string, RedirectWords> = {
  CLICTOPAY: { intro: "introClictopay", logoAlt: "logoAltClictopay" },
  CHARGILY: { intro: "introChargily", logoAlt: "logoAltChargily" },
};

const isNotice = (value: string | undefined): value is RedirectNotice => (REDIRECT_NOTICES as readonly string[]).includes(value ?? "");

/** GET /{locale}/pay/redirect/{paymentId}: the merchant, the amount, and Pay with the method's logo. */
export async function getRedirectPageView(db: Db, options: { locale: Locale; paymentId: string; query: HostedPageQuery }): Promise<RedirectPageView> {
  const { locale, paymentId, query } = options;
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) return { kind: "not_found" };
  const { payment } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };
  if (payment.state !== "REQUIRES_ACTION") return pageElsewhere(notAwaitingBuyerPageMode(payment.state), link);
  if (paymentMethodOf(payment.paymentMethodCode)?.hostedStep !== "redirect") return { kind: "not_found" };
  const expired = payment.expired;
  return {
    kind: "render",
    mode: expired ? "expired" : "pay",
    ...amountShown(payment),
    logoPath: CATALOG_DEFAULTS.find((row) => row.code === payment.paymentMethodCode)?.imagePath ?? "/payment-methods/cib-edahabia.svg",
    words: WORDS_OF_METHOD[payment.paymentMethodCode ?? ""] ?? { intro: "intro", logoAlt: "logoAlt" },
    notice: isNotice(query.notice) ? query.notice : null,
    form: expired ? null : { action: redirectPayFormPath(link), token: link.token, returnUrl: query.returnUrl, formToken: await hostedFormToken(db, "redirect", link.token) },
    expiredTarget: expired
      ? expiredReturnTarget({ paymentId, redirectUrl: payment.redirectUrl, serviceRedirectUrl: payment.serviceRedirectUrl, allowedOrigins: payment.allowedOrigins })
      : null,
  };
}
