import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { hostedFormToken } from "../hosted-form-route";
import { isCodeExpired, otpPageMode, resendCountdown } from "../hosted-outcome";
import type { HostedPageQuery } from "../hosted-page-query";
import { OTP_NOTICES, type OtpNotice } from "../../urls/hosted-urls";
import { loadHostedPayment } from "../load-hosted-payment";
import { expiredReturnTarget, resolveReturnTarget } from "../resolve-return-target";
import { notFoundOrToReturnPage, type PageRedirectOrNotFound } from "./page-redirect-or-not-found";
import { amountDisplayFields } from "./amount-display-fields";

/** Everything the OTP page renders, decided here; the page only lays it out. */
export type OtpPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      mode: "enter_code" | "expired";
      merchantName: string;
      amount: number;
      currency: string;
      /** Where "expired" sends the buyer back to the shop (null: nowhere trusted). */
      expiredTarget: string | null;
      /** Before paying, the buyer may still go back to the shop. */
      shopLink: string | null;
      form: {
        token: string;
        returnUrl: string | undefined;
        formToken: string;
        resendInSeconds: number;
        codeExpired: boolean;
        attemptsLeft: number;
        notice: OtpNotice | null;
      } | null;
    };

/** GET /{locale}/pay/otp/{paymentId}: the payment as its token shows it, as the page shows it. */
export async function getOtpPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<OtpPageView> {
  const { locale, paymentId, query } = options;
  const loaded = await loadHostedPayment(db, { paymentId, token: query.token });
  if (!loaded) return { kind: "not_found" };
  const { payment, now } = loaded;
  const link = { locale, paymentId, token: query.token!, returnUrl: query.returnUrl };

  const mode = otpPageMode({ state: payment.state, expired: payment.expired, hasOtp: payment.otp !== null });
  if (mode === "unavailable" || mode === "finished") return notFoundOrToReturnPage(mode, link);
  const returnPolicy = {
    paymentId,
    returnUrl: query.returnUrl,
    serviceRedirectUrl: payment.serviceRedirectUrl,
    allowedOrigins: payment.allowedOrigins,
  };
  const notice = (OTP_NOTICES as readonly string[]).includes(query.notice ?? "") ? (query.notice as OtpNotice) : null;
  return {
    kind: "render",
    mode,
    ...amountDisplayFields(payment),
    expiredTarget: mode === "expired" ? expiredReturnTarget(returnPolicy) : null,
    shopLink: mode === "enter_code" ? resolveReturnTarget({ ...returnPolicy, statusCode: payment.statusCode }) : null,
    form:
      mode === "enter_code"
        ? {
            token: link.token,
            returnUrl: query.returnUrl,
            formToken: await hostedFormToken(db, "otp", link.token),
            resendInSeconds: resendCountdown(payment, now) ?? 0,
            codeExpired: isCodeExpired(payment, now),
            attemptsLeft: payment.otp?.attemptsLeft ?? 0,
            notice,
          }
        : null,
  };
}
