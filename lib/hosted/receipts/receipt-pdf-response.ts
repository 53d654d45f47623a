import { getDb } from "../../db/client";
import { hostedPageHeaders, noStore } from "../../http/security-headers";
import { isLocale } from "../../i18n/locales";
import { translator } from "../../i18n/translator";
import { getPaymentReceipt } from "../../payments/hosted/get-payment-receipt";
import { plainPageResponse } from "../form-response";
import { receiptContent } from "./receipt-content";
import { renderReceiptPdf } from "./receipt-pdf";

/**
 * The receipt PDF for whoever holds the return page's token: a wrong token, another payment's
 * token or an unknown payment are one and the same 404, so the address tells nothing. Never
 * cached (it names a buyer's payment).
 */
export async function receiptPdfResponse(
  request: Request,
  params: { locale: string; paymentId: string },
): Promise<Response> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const token = new URL(request.url).searchParams.get("token");
  const receipt = await getPaymentReceipt(await getDb(), { paymentId: params.paymentId, token });
  if (!receipt || !isLocale(params.locale)) {
    const t = translator(locale, "linkInvalid");
    return plainPageResponse({ locale, status: 404, title: t("title"), body: t("body") });
  }
  const content = receiptContent(receipt, locale);
  const pdf = await renderReceiptPdf(content);
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      ...hostedPageHeaders,
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${content.fileName.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": noStore,
    },
  });
}
