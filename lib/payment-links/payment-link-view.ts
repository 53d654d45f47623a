import { fromMinorUnits } from "../money/amount";
import { paymentLinkQrImageUrl, paymentLinkUrl } from "../urls/payment-link-urls";
import { linkClosure, type LinkPaymentTotals, type PaymentLinkRow } from "./payment-link-record";
import type { PaymentLinkView } from "./payment-link.schema";

/** A link as the API (and the console) shows it, with its payments' totals at `now` (the service's clock). */
export function toPaymentLinkView(link: PaymentLinkRow, totals: LinkPaymentTotals, now: Date): PaymentLinkView {
  const standard = (minor: number | null) => (minor === null ? null : fromMinorUnits(minor, link.currency));
  return {
    id: link.id,
    url: paymentLinkUrl(link.id),
    qrImageUrl: paymentLinkQrImageUrl(link.id),
    title: link.title,
    description: link.description,
    amount: standard(link.amountMinor),
    minAmount: standard(link.minAmountMinor),
    maxAmount: standard(link.maxAmountMinor),
    currency: link.currency,
    countryCode: link.country,
    captureMethod: link.captureMethod,
    reusable: link.reusable,
    active: linkClosure(link, totals, now) === null,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    locale: link.locale as PaymentLinkView["locale"],
    createdAt: link.createdAt.toISOString(),
    paymentsCount: totals.succeededCount,
    succeededAmount: totals.succeededMinor === 0 ? 0 : fromMinorUnits(totals.succeededMinor, link.currency),
  };
}
