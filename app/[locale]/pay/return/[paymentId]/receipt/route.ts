import { receiptPdfResponse } from "@/lib/hosted/receipts/receipt-pdf-response";

/**
 * GET /{locale}/pay/return/{paymentId}/receipt?token=...: the receipt as a PDF, in that language; 404 without
 * the return page's token.
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ locale: string; paymentId: string }> },
): Promise<Response> {
  return receiptPdfResponse(request, await context.params);
}
