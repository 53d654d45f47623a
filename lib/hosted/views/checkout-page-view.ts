import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { enabledMethodCodes } from "../../payment-methods/enabled-method-codes";
import type { PaymentMethodCode } from "../../payment-methods/codes/payment-method-codes";
import { proceedFromCheckout, stepPageOf } from "../../payments/hosted/proceed-from-checkout";
import { CHECKOUT_NOTICES, returnPagePath, type CheckoutNotice } from "../../urls/hosted-urls";
import { checkoutNextPath } from "../checkout-next-page";
import { checkoutPageMode } from "../checkout-page";
import { hostedFormToken } from "../hosted-form-route";
import type { HostedPageQuery } from "../hosted-page-query";
import { loadHostedPayment } from "../load-hosted-payment";
import { expiredReturnTarget, resolveReturnTarget } from "../resolve-return-target";
import { amountDisplayFields } from "./amount-display-fields";
import type { PageRedirectOrNotFound } from "./page-redirect-or-not-found";

/** Everything the checkout page renders, decided here; the page only lays it out. */
export type CheckoutPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      mode: "choose" | "no_methods" | "expired" | "finished" | "error";
      merchantName: string;
      amount: number;
      currency: string;
      expiredTarget: string | null;
      /** Before paying, the buyer may still go back to the shop. */
      shopLink: string | null;
      /** "finished": the return page, which tells how it ended. */
      outcomeLink: string | null;
      form: {
        token: string;
        returnUrl: string | undefined;
        formToken: string;
        methods: PaymentMethodCode[];
        notice: CheckoutNotice | null;
      } | null;
    };

/**
 * GET /{locale}/pay/checkout/{paymentId}?token=...&returnUrl=...: the methods enabled for the
 * intent's country to choose from. A QR intent has nothing to choose: it is proceeded with the
 * wallet at once and the buyer goes on to its QR page; a payment already under way goes on to its step.
 */
export async function getCheckoutPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<CheckoutPageView> {
  const { locale, paymentId, query } = options;
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) return { kind: "not_found" };
  const { payment } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };
  const returnPolicy = {
    paymentId,
    returnUrl: query.returnUrl,
    serviceRedirectUrl: payment.serviceRedirectUrl,
    allowedOrigins: payment.allowedOrigins,
  };
  const rendered = {
    kind: "render" as const,
    ...amountDisplayFields(payment),
    expiredTarget: null,
    shopLink: null,
    outcomeLink: null,
    form: null,
  };

  const mode = checkoutPageMode(payment);
  switch (mode) {
    case "start_qr": {
      const started = await proceedFromCheckout(db, {
        paymentId,
        token: link.token,
        code: "WALLET_V2",
        locale,
        returnUrl: query.returnUrl,
      });
      return started.outcome === "proceeded"
        ? { kind: "redirect", location: checkoutNextPath(started.next, link) }
        : { ...rendered, mode: "error" };
    }
    case "continue": {
      const step = payment.transactionType === "QR_CODE" ? "qr" : (stepPageOf(payment.paymentMethodCode) ?? "return");
      return {
        kind: "redirect",
        location: checkoutNextPath(payment.state === "PROCESSING" && step !== "qr" ? "return" : step, link),
      };
    }
    case "expired":
      return { ...rendered, mode, expiredTarget: expiredReturnTarget(returnPolicy) };
    case "finished":
      return { ...rendered, mode, outcomeLink: returnPagePath(link) };
    case "choose":
      break;
  }
  const methods = await enabledMethodCodes(db, {
    service: { id: payment.serviceId, countries: payment.serviceCountries },
    country: payment.country,
  });
  const notice = (CHECKOUT_NOTICES as readonly string[]).includes(query.notice ?? "")
    ? (query.notice as CheckoutNotice)
    : null;
  return {
    ...rendered,
    mode: methods.length > 0 ? "choose" : "no_methods",
    shopLink: resolveReturnTarget({ ...returnPolicy, statusCode: payment.statusCode }),
    form:
      methods.length > 0
        ? {
            token: link.token,
            returnUrl: query.returnUrl,
            formToken: await hostedFormToken(db, "checkout", link.token),
            methods,
            notice,
          }
        : null,
  };
}
