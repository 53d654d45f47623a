import { z } from "zod";
import { amountSchema } from "../../money/amount.schema";

export const refundPaymentBody = z.object({
  description: z.string().trim().min(1).max(500),
  // Omitted: everything still refundable.
  amount: amountSchema.optional(),
  reason: z.string().trim().min(1).max(100).optional(),
});

export type RefundPaymentBody = z.output<typeof refundPaymentBody>;
