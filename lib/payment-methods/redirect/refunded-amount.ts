import { ProviderUnavailableError } from "../../provider-operations";

/**
 * The refunded total in an RBS getOrderStatusExtended.do answer (SATIM's and ClicToPay's
 * platform): paymentAmountInfo.refundedAmount, in the order's minor units. An answer that does
 * not say leaves the refund's fate unknown, so the caller waits rather than guess.
 */
export function refundedAmountOf(answer: Record<string, unknown>, providerName: string): number {
  const errorCode = String(answer.errorCode ?? answer.ErrorCode ?? "0");
  const amounts = answer.paymentAmountInfo as Record<string, unknown> | undefined;
  const refunded = Number(amounts?.refundedAmount);
  if (errorCode !== "0" || !Number.isSafeInteger(refunded) || refunded < 0) {
    throw new ProviderUnavailableError(
      `${providerName} getOrderStatusExtended.do did not say what the order refunded (errorCode ${errorCode})`,
    );
  }
  return refunded;
}
