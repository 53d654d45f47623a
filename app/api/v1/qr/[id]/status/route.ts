import * as op from "@/lib/api/operations/internals";
import { ApiError } from "@/lib/errors/api-error";
import { endpoint } from "@/lib/http/endpoint";
import { getQrPaymentStatus } from "@/lib/payment-methods/registry/method-entry-points";
import { methodFunds } from "@/lib/payment-methods/registry/method-funds";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/qr/:id/status?token=... — what the hosted QR page polls until the payment ends.
export const GET = endpoint(op.getQrStatus, async ({ db, params, query }) => {
  const status = await getQrPaymentStatus(db, { paymentId: params.id ?? "", token: query.token, methods: methodFunds });
  if (!status) throw new ApiError("not_found", "No such QR payment.");
  return { data: status, message: "QR payment status retrieved." };
});

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
