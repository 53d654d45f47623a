import * as op from "@/lib/api/operations/internals";
import { endpoint } from "@/lib/http/endpoint";
import { answerQrPayment } from "@/lib/payment-methods/registry/method-entry-points";
import { toCheckResultView } from "@/lib/payments/operations/payment-views";
import { sandboxOnly } from "@/lib/http/sandbox-only";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/sandbox/payments/:id/qr — answers a QR payment as the customer's wallet app would.
export const POST = sandboxOnly(
  endpoint(op.answerSandboxQrPayment, async ({ db, principal, params, body }) => {
    const { payment } = await answerQrPayment(db, {
      paymentId: params.id ?? "",
      outcome: body.outcome,
      access: { principal },
    });
    return {
      data: toCheckResultView(payment),
      message:
        body.outcome === "approve"
          ? "QR payment approved in the sandbox wallet."
          : "QR payment declined in the sandbox wallet.",
    };
  }),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST }, { sandboxOnly: true });
