import { z } from "zod";
import { amountSchema } from "../../money/amount.schema";

/** amount omitted: the whole reservation. */
export const capturePaymentBody = z.object({ amount: amountSchema.optional() });
export type CapturePaymentBody = z.output<typeof capturePaymentBody>;

export const releasePaymentBody = z.object({});
