import * as op from "@/lib/api/operations/payments";
import { API_CAUSE } from "@/lib/payments/core/state-change-cause";
import { endpoint } from "@/lib/http/endpoint";
import type { PaymentRow } from "@/lib/db/payment-record";
import { toReleaseResultView } from "@/lib/payments/operations/payment-views";
import { releasePayment } from "@/lib/payments/operations/release-payment";
import { otherMethods } from "@/lib/http/method-not-allowed";

const respond = (payment: PaymentRow) => ({ data: toReleaseResultView(payment), message: "Reservation released." });

// POST /api/v1/payments/intents/:id/release
export const POST = endpoint(
  op.releasePayment,
  async ({ db, principal, params, idempotency }) =>
    respond(await releasePayment(db, { principal, paymentId: params.id ?? "", cause: API_CAUSE, operationKey: idempotency.operationKey })),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
