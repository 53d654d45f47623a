import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cardPayments } from "../../db/schema";
import { getDb } from "../../db/client";
import {
  beginProviderOperation,
  findProviderOperation,
  operationId,
  type ProviderAnswer,
  type ProviderOperationHandler,
  type ProviderOperationKind,
  type ProviderOperationRow,
} from "../../provider-operations";
import { cardProvider } from "../../providers/card-provider";
import type { CardAccountRef } from "../../providers/card/card-provider-accounts";
import { askCardProvider } from "../../providers/card/ask-card-provider";
import { settleCapture, settleRefund, settleRelease } from "../../payments/core/money-operation-settlements";
import type { PaymentRow } from "../../db/payment-record";

/*
 * The card provider's money-moving calls as provider operations (lib/provider-operations):
 * capture, cancel (release or reversal) and refund (detach: lib/cards). Each handler calls the provider
 * with the operation id as its idempotency key, outside any transaction, and settles the
 * payment by the answer in the settle transaction.
 */

/**
 * What every card operation of a payment sends: its provider intent and the account (service
 * and country) whose keys the call uses. Read inside the transaction that records the operation.
 */
export async function cardOperationRequest(tx: Db, payment: Pick<PaymentRow, "id" | "serviceId" | "country">) {
  const [row] = await tx
    .select({ providerIntentId: cardPayments.providerIntentId })
    .from(cardPayments)
    .where(eq(cardPayments.paymentId, payment.id));
  if (!row) throw new Error(`card payment ${payment.id} has no provider intent`);
  return {
    providerIntentId: row.providerIntentId,
    account: { serviceId: payment.serviceId, country: payment.country },
  };
}

/** One card operation per payment and purpose, however many finalizes, events and expiries race to record it. */
export async function recordCardOperationOnce(
  tx: Db,
  options: {
    payment: PaymentRow;
    purpose: string;
    kind: ProviderOperationKind;
    amountMinor?: number;
    request: Record<string, unknown>;
    deferred?: boolean;
  },
): Promise<ProviderOperationRow> {
  const id = operationId(`card-${options.purpose}:${options.payment.id}`);
  const account = { serviceId: options.payment.serviceId, country: options.payment.country };
  const existing = await findProviderOperation(tx, id, { paymentId: options.payment.id });
  if (existing) return existing;
  return beginProviderOperation(tx, {
    id,
    paymentId: options.payment.id,
    provider: "card",
    kind: options.kind,
    amountMinor: options.amountMinor,
    request: { ...options.request, account },
    deferred: options.deferred,
  });
}

/**
 * A card payment (its expiry in card-funds.ts) that ends without its card (it expired): its
 * provider intent is canceled, as for a declined card (the same operation), so a page still open
 * cannot take money for it. Recorded here and left to reconciliation, which calls the provider
 * within seconds; if the buyer confirmed first, the cancel is refused and reconcileCardPayments
 * reverses the charge.
 */
export async function cancelUnfinishedCardIntent(tx: Db, payment: PaymentRow): Promise<void> {
  const [card] = await tx
    .select({ providerIntentId: cardPayments.providerIntentId, finalizedAt: cardPayments.finalizedAt })
    .from(cardPayments)
    .where(eq(cardPayments.paymentId, payment.id));
  if (!card || card.finalizedAt) return;
  await recordCardOperationOnce(tx, {
    payment,
    purpose: "fail",
    kind: "cancel",
    request: { providerIntentId: card.providerIntentId },
    deferred: true,
  });
}

const intentOf = (operation: ProviderOperationRow) => String(operation.request.providerIntentId);
const accountOf = (operation: ProviderOperationRow) => operation.request.account as CardAccountRef;

export const cardCapture: ProviderOperationHandler = {
  provider: "card",
  kind: "capture",
  async call(operation) {
    const result = await askCardProvider(async () =>
      cardProvider().capturePaymentIntent(await getDb(), {
        id: intentOf(operation),
        amountMinor: operation.amountMinor!,
        idempotencyKey: operation.id,
        account: accountOf(operation),
      }),
    );
    return { reference: intentOf(operation), data: { releasedMinor: result.releasedMinor } };
  },
  settle: settleCapture,
};

/** Cancels the provider intent (a release, a stale release or a reversal: see settleRelease). */
export const cardCancel: ProviderOperationHandler = {
  provider: "card",
  kind: "cancel",
  async call(operation) {
    await askCardProvider(async () =>
      cardProvider().cancelPaymentIntent(await getDb(), {
        id: intentOf(operation),
        idempotencyKey: operation.id,
        account: accountOf(operation),
      }),
    );
    return { reference: intentOf(operation) };
  },
  settle: settleRelease,
};

export const cardRefund: ProviderOperationHandler = {
  provider: "card",
  kind: "refund",
  async call(operation): Promise<ProviderAnswer> {
    const { refundId } = await askCardProvider(async () =>
      cardProvider().refundPaymentIntent(await getDb(), {
        id: intentOf(operation),
        amountMinor: operation.amountMinor!,
        idempotencyKey: operation.id,
        account: accountOf(operation),
      }),
    );
    return { reference: refundId };
  },
  settle: settleRefund,
};
