import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";
import { returnPagePathAfterReceipt, type ReceiptNotice } from "../../urls/hosted-urls";
import type { FormBody } from "../read-form-body";
import { sendReceiptEmail, type ReceiptEmailResult } from "./send-receipt-email";

const NOTICE: Record<Exclude<ReceiptEmailResult, "not_found">, ReceiptNotice> = {
  sent: "receipt_sent",
  email_invalid: "receipt_email_invalid",
  too_many: "receipt_too_many",
  failed: "receipt_failed",
  // SMTP_URL went away between the page and the post: the page no longer offers the form.
  unavailable: "receipt_failed",
};

/** The return page's "Send receipt" form: sends, then back to the page (staying) with what happened. */
export async function receiptEmailForm(options: {
  db: Db;
  locale: Locale;
  paymentId: string;
  fields: FormBody;
}): Promise<string> {
  const { db, locale, paymentId, fields } = options;
  const token = fields.token ?? "";
  const result = await sendReceiptEmail(db, { paymentId, token, locale, email: fields.email ?? "" });
  // The form token already proved the page's token; a payment gone since answers as a failure.
  const notice = result === "not_found" ? "receipt_failed" : NOTICE[result];
  return returnPagePathAfterReceipt({ locale, paymentId, token, returnUrl: fields.returnUrl, notice });
}
