import type { Db } from "../db/client";
import { paymentCaptures, type payments } from "../db/schema";
import { walletProvider } from "../providers/wallet/wallet-provider";
import { applyTransition } from "./apply-transition";
import { FAILURE_REASON, STATUS_TEXT } from "./payment-messages";
import type { PaymentRow } from "./payment-record";

type ExtraChanges = Partial<Pick<typeof payments.$inferInsert, "paymentMethodCode" | "platform" | "locale">>;

/**
 * Takes the payment's money from the customer's wallet once nothing else stands in the way
 * (OTP verified, or the owner proceeding in person): DIRECT debits and succeeds, RESERVATION
 * holds and pre-authorizes, and an insufficient balance fails the payment (200 with 3).
 */
export async function chargeWallet(
  tx: Db,
  options: { payment: PaymentRow; now: Date; changes?: ExtraChanges },
): Promise<PaymentRow> {
  const { payment, now } = options;
  const wallet = walletProvider();
  const movement = {
    account: { serviceId: payment.serviceId, customerId: payment.customerId, currency: payment.currency },
    paymentId: payment.id,
    amountMinor: payment.amountMinor,
  };
  switch (payment.captureMethod) {
    case "DIRECT": {
      const outcome = await wallet.debit(tx, movement);
      if (!outcome.ok) return failForFunds(tx, options);
      // A direct payment is captured whole at once; the capture row keeps the sums derivable.
      await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor: payment.amountMinor });
      return applyTransition(tx, {
        payment,
        event: "succeed",
        now,
        changes: {
          ...options.changes,
          capturedMinor: payment.amountMinor,
          providerReference: outcome.reference,
          status: STATUS_TEXT.succeeded,
        },
      });
    }
    case "RESERVATION": {
      const outcome = await wallet.hold(tx, movement);
      if (!outcome.ok) return failForFunds(tx, options);
      return applyTransition(tx, {
        payment,
        event: "pre_authorize",
        now,
        changes: { ...options.changes, authorizedAt: now, providerReference: outcome.reference, status: STATUS_TEXT.reserved },
      });
    }
  }
}

/** A wallet that cannot cover the amount rejects the payment (contract section 9). */
export function failForFunds(
  tx: Db,
  options: { payment: PaymentRow; now: Date; changes?: ExtraChanges },
): Promise<PaymentRow> {
  return applyTransition(tx, {
    payment: options.payment,
    event: "fail",
    now: options.now,
    changes: { ...options.changes, failureReason: FAILURE_REASON.insufficientFunds, status: STATUS_TEXT.insufficientFunds },
  });
}
