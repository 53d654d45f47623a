import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { readQrPage, type QrPageData } from "../../payment-methods/registry/method-entry-points";
import { getHostedPayment } from "../../payments/hosted/get-hosted-payment";
import type { HostedPageQuery } from "../hosted-page-query";
import { returnPagePath, qrStatusPath, qrImagePath, walletAppPath } from "../../urls/hosted-urls";
import { qrPageMode } from "../qr-page";
import { expiredReturnTarget } from "../resolve-return-target";
import { notFoundOrToReturnPage, type PageRedirectOrNotFound } from "./page-redirect-or-not-found";
import { amountDisplayFields } from "./amount-display-fields";

/** Everything the QR page renders, decided here; the page only lays it out. */
export type QrPageView =
  | PageRedirectOrNotFound
  | {
      kind: "render";
      mode: "show_code" | "expired";
      merchantName: string;
      amount: number;
      currency: string;
      expiredTarget: string | null;
      links: { image: string; status: string; returnPage: string; walletApp: string | null };
    };

/**
 * The QR page's domain read: the payment its token shows and the wallet's own read of it
 * (lib/payment-methods/wallet/hosted/get-qr-page.ts). Null for a wrong token or an unknown payment.
 */
export async function getQrPage(db: Db, options: { paymentId: string; token: string }): Promise<QrPageData | null> {
  const payment = await getHostedPayment(db, options);
  return payment && readQrPage(db, payment);
}

/** GET /{locale}/pay/qr/{paymentId}: the QR code the buyer scans, and where the page goes next. */
export async function getQrPageView(
  db: Db,
  options: { locale: Locale; paymentId: string; query: HostedPageQuery },
): Promise<QrPageView> {
  const { locale, paymentId, query } = options;
  if (!query.token) return { kind: "not_found" };
  const view = await getQrPage(db, { paymentId, token: query.token });
  if (!view) return { kind: "not_found" };
  const { payment } = view;
  const link = { locale, paymentId, token: query.token, returnUrl: query.returnUrl };
  const mode = qrPageMode(payment);
  if (mode === "unavailable" || mode === "finished") return notFoundOrToReturnPage(mode, link);
  return {
    kind: "render",
    mode,
    ...amountDisplayFields(payment),
    expiredTarget:
      mode === "expired"
        ? expiredReturnTarget({
            paymentId,
            returnUrl: query.returnUrl,
            serviceRedirectUrl: payment.serviceRedirectUrl,
            allowedOrigins: payment.allowedOrigins,
          })
        : null,
    links: {
      image: qrImagePath({ paymentId, token: link.token }),
      status: qrStatusPath({ paymentId, token: link.token }),
      returnPage: returnPagePath(link),
      walletApp: view.walletAppToken ? walletAppPath({ locale, paymentId, token: view.walletAppToken }) : null,
    },
  };
}
