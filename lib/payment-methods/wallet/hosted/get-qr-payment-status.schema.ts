import { z } from "zod";
import { PAYMENT_STATES } from "../../../payments/core/payment-state";

// A missing or malformed token is answered like a wrong one (404), telling nothing more.
export const qrPaymentStatusView = z.object({
  statusCode: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  expired: z.boolean(),
});

export const qrStatusQuery = z.object({ token: z.string().max(256).catch("") });
