import { firstPaymentPageResponse } from "@/lib/api/docs-pages";

// GET /docs/first-payment — the curl guide of docs/first-payment.md.
export function GET(request: Request): Response {
  return firstPaymentPageResponse(request);
}
