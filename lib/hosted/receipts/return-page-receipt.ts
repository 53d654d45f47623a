import { getConfig } from "../../config";
import type { Db } from "../../db/client";
import { getPaymentReceipt } from "../../payments/hosted/get-payment-receipt";
import {
  RECEIPT_NOTICES,
  receiptEmailFormPath,
  receiptPdfPath,
  type HostedLinkOptions,
  type ReceiptNotice,
} from "../../urls/hosted-urls";
import { hostedFormToken } from "../hosted-form-route";
import { receiptContent, type ReceiptContent } from "./receipt-content";

/**
 * What the return page of every method shows of the receipt (one piece, so a new method has it
 * for free): the receipt itself (printed alone by the print stylesheet), the PDF's address under
 * the page's own token, and the email form when SMTP_URL is set.
 */
export interface ReturnPageReceipt {
  content: ReceiptContent;
  pdfHref: string;
  email: { action: string; token: string; returnUrl: string | undefined; formToken: string } | null;
  notice: ReceiptNotice | null;
}

export async function returnPageReceipt(
  db: Db,
  options: { link: HostedLinkOptions; notice: string | undefined },
): Promise<ReturnPageReceipt | null> {
  const { link } = options;
  const receipt = await getPaymentReceipt(db, { paymentId: link.paymentId, token: link.token });
  if (!receipt) return null;
  const email = getConfig().SMTP_URL
    ? {
        action: receiptEmailFormPath(link),
        token: link.token,
        returnUrl: link.returnUrl ?? undefined,
        formToken: await hostedFormToken(db, "receipt", link.token),
      }
    : null;
  const notice = (RECEIPT_NOTICES as readonly string[]).includes(options.notice ?? "")
    ? (options.notice as ReceiptNotice)
    : null;
  return { content: receiptContent(receipt, link.locale), pdfHref: receiptPdfPath(link), email, notice };
}
