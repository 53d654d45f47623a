import { formatMinorAmount } from "../../i18n/format-amount";
import { numberLocale } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";
import { translator } from "../../i18n/translator";
import type { PaymentReceipt } from "../../payments/hosted/get-payment-receipt";
import { returnOutcome } from "../hosted-outcome";

export type ReceiptField =
  | "merchant"
  | "amount"
  | "dateTime"
  | "timeZone"
  | "outcome"
  | "actionId"
  | "paymentId"
  | "providerOrderNumber"
  | "authorizationCode";

export interface ReceiptRow {
  field: ReceiptField;
  label: string;
  value: string;
  /** A value read left to right in every language (amounts, dates' digits, references). */
  ltr: boolean;
}

/** A receipt as the buyer reads it, in one language: the page, the PDF and the email all render this. */
export interface ReceiptContent {
  locale: Locale;
  title: string;
  rows: ReceiptRow[];
  /** The PDF's file name, without a path: the payment id keeps two receipts apart. */
  fileName: string;
}

/**
 * The receipt's lines in the page's language. The time is written in the merchant's time zone
 * (contract 13), as the console writes it, its offset named as the language names it ("GMT+1",
 * "UTC+1", "غرينتش+1"), and the zone's name follows on a line of its own (read left to right,
 * never broken into an Arabic sentence), so a buyer and the shop read the same time.
 */
export function receiptContent(receipt: PaymentReceipt, locale: Locale): ReceiptContent {
  const t = translator(locale, "receipt");
  const tReturn = translator(locale, "return");
  const timeZone = receipt.timeZone;
  const at = new Intl.DateTimeFormat(numberLocale(locale), { dateStyle: "long", timeStyle: "long", timeZone }).format(
    receipt.at,
  );
  const rows: ReceiptRow[] = [
    { field: "merchant", label: t("merchant"), value: receipt.merchantName, ltr: false },
    {
      field: "amount",
      label: t("amount"),
      value: formatMinorAmount({ minor: receipt.amountMinor, currency: receipt.currency, locale }),
      ltr: true,
    },
    { field: "dateTime", label: t("dateTime"), value: at, ltr: false },
    { field: "timeZone", label: t("timeZone"), value: timeZone, ltr: true },
    { field: "outcome", label: t("outcome"), value: tReturn(returnOutcome(receipt.state)), ltr: false },
    { field: "actionId", label: t("actionId"), value: receipt.actionId, ltr: true },
    { field: "paymentId", label: t("paymentId"), value: receipt.paymentId, ltr: true },
  ];
  // Filled by the methods whose provider gives them (redirect methods, a QR wallet); absent otherwise.
  if (receipt.providerOrderNumber)
    rows.push({
      field: "providerOrderNumber",
      label: t("providerOrderNumber"),
      value: receipt.providerOrderNumber,
      ltr: true,
    });
  if (receipt.authorizationCode)
    rows.push({
      field: "authorizationCode",
      label: t("authorizationCode"),
      value: receipt.authorizationCode,
      ltr: true,
    });
  return { locale, title: t("title"), rows, fileName: `${t("fileName")}-${receipt.paymentId}.pdf` };
}
