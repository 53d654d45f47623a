import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { cardPayments, paymentCaptures, paymentRefunds } from "../db/schema";
import { getDb } from "../db/client";
import {
  ProviderRefusedError,
  registerProviderOperation,
  type ProviderAnswer,
  type ProviderOperationRow,
} from "../provider-operations";
import { cardProvider } from "../providers/card/card-provider";
import type { CardAccountRef } from "../providers/card/card-provider-accounts";
import { CardProviderError } from "../providers/card/sandbox-card-provider";
import type { PaymentRow } from "./payment-record";
import { applyTransition } from "./apply-transition";
import { STATUS_TEXT } from "./payment-messages";

/*
 * The card provider's money-moving calls as provider operations (lib/provider-operations):
 * capture, cancel (release or reversal), refund and detach. Each handler calls the provider
 * with the operation id as its idempotency key, outside any transaction, and settles the
 * payment by the answer in the settle transaction.
 */

/**
 * What every card operation of a payment sends: its provider intent and the account (service
 * and country) whose keys the call uses. Read inside the transaction that records the operation.
 */
export async function cardOperationRequest(tx: Db, payment: Pick<PaymentRow, "id" | "serviceId" | "country">) {
  const [row] = await tx.select({ providerIntentId: cardPayments.providerIntentId }).from(cardPayments).where(eq(cardPayments.paymentId, payment.id));
  if (!row) throw new Error(`card payment ${payment.id} has no provider intent`);
  return { providerIntentId: row.providerIntentId, account: { serviceId: payment.serviceId, country: payment.country } };
}

/** A refusal by the provider (an HTTP 4xx with an error code) is definitive; anything else may have applied. */
async function asked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CardProviderError && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 409) {
      throw new ProviderRefusedError(error.code, error.message);
    }
    throw error;
  }
}

const intentOf = (operation: ProviderOperationRow) => String(operation.request.providerIntentId);
const accountOf = (operation: ProviderOperationRow) => operation.request.account as CardAccountRef;

export const cardCapture = registerProviderOperation({
  provider: "card",
  kind: "capture",
  async call(operation) {
    const result = await asked(async () =>
      cardProvider().capturePaymentIntent(await getDb(), { id: intentOf(operation), amountMinor: operation.amountMinor!, idempotencyKey: operation.id, account: accountOf(operation) }),
    );
    return { reference: intentOf(operation), data: { releasedMinor: result.releasedMinor } };
  },
  async settle(tx, { operation, payment, answer, now }) {
    const amountMinor = operation.amountMinor!;
    await tx.insert(paymentCaptures).values({ paymentId: payment.id, amountMinor, releasedMinor: Number(answer.data?.releasedMinor ?? 0) });
    await applyTransition(tx, {
      payment,
      event: "capture",
      now,
      changes: { capturedMinor: payment.capturedMinor + amountMinor, status: STATUS_TEXT.captured },
      notification: { capturedMinor: amountMinor },
    });
    return {};
  },
});

/**
 * Cancels the provider intent. For a release (`request.release`) the payment becomes CANCELED
 * when the provider confirms; a reversal or a stale release already changed the payment when
 * the operation was recorded, so settling only records the provider's answer.
 */
export const cardCancel = registerProviderOperation({
  provider: "card",
  kind: "cancel",
  async call(operation) {
    await asked(async () => cardProvider().cancelPaymentIntent(await getDb(), { id: intentOf(operation), idempotencyKey: operation.id, account: accountOf(operation) }));
    return { reference: intentOf(operation) };
  },
  async settle(tx, { operation, payment, now }) {
    if (operation.request.release === true && payment.state === "PRE_AUTHORIZED") {
      await applyTransition(tx, { payment, event: "release", now, changes: { status: STATUS_TEXT.released } });
    }
    return {};
  },
});

export const cardRefund = registerProviderOperation({
  provider: "card",
  kind: "refund",
  async call(operation): Promise<ProviderAnswer> {
    const { refundId } = await asked(async () =>
      cardProvider().refundPaymentIntent(await getDb(), { id: intentOf(operation), amountMinor: operation.amountMinor!, idempotencyKey: operation.id, account: accountOf(operation) }),
    );
    return { reference: refundId };
  },
  async settle(tx, { operation, payment, answer, now }) {
    // A reversal of a charge the gateway never accepted moves no gateway books.
    if (operation.request.reversal === true) return {};
    const amountMinor = operation.amountMinor!;
    const refundedMinor = payment.refundedMinor + amountMinor;
    const full = refundedMinor === payment.capturedMinor;
    const [refund] = await tx
      .insert(paymentRefunds)
      .values({
        paymentId: payment.id,
        amountMinor,
        description: String(operation.request.description ?? ""),
        reason: typeof operation.request.reason === "string" ? operation.request.reason : null,
        providerReference: answer.reference,
      })
      .returning({ id: paymentRefunds.id });
    await applyTransition(tx, {
      payment,
      event: full ? "refund_full" : "refund_partial",
      now,
      changes: { refundedMinor, status: full ? STATUS_TEXT.refunded : STATUS_TEXT.partiallyRefunded },
      notification: { refundedMinor: amountMinor },
    });
    return { refundId: refund!.id };
  },
});

/** Forgets a deleted saved card at the provider; the card already left the gateway's lists. */
export const cardDetach = registerProviderOperation({
  provider: "card",
  kind: "detach",
  async call(operation) {
    const id = String(operation.request.providerPaymentMethodId);
    await asked(async () => cardProvider().detachPaymentMethod(await getDb(), { id, idempotencyKey: operation.id, account: accountOf(operation) }));
    return { reference: id };
  },
  async settle() {
    return {};
  },
});
