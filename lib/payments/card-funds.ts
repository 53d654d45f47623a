import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { cardPayments } from "../db/schema";
import { cardProvider } from "../providers/card/card-provider";
import type { WalletProvider } from "../providers/wallet/port";

async function providerIntentOf(tx: Db, paymentId: string): Promise<string> {
  const [row] = await tx
    .select({ providerIntentId: cardPayments.providerIntentId })
    .from(cardPayments)
    .where(eq(cardPayments.paymentId, paymentId));
  if (!row) throw new Error(`card payment ${paymentId} has no provider intent`);
  return row.providerIntentId;
}

/**
 * Capture, release and refund of a CARD_PROVIDER payment, in the shape payment-funds.ts
 * routes to: a partial capture lets the provider release the rest of the authorization, a
 * release cancels the provider intent, a refund refunds it.
 */
export const cardFunds: Pick<WalletProvider, "captureHold" | "releaseHold" | "credit"> = {
  async captureHold(tx, { paymentId, amountMinor }) {
    return cardProvider().capturePaymentIntent(tx, { id: await providerIntentOf(tx, paymentId), amountMinor });
  },
  async releaseHold(tx, { paymentId }) {
    return cardProvider().cancelPaymentIntent(tx, { id: await providerIntentOf(tx, paymentId) });
  },
  async credit(tx, { paymentId, amountMinor }) {
    const { refundId } = await cardProvider().refundPaymentIntent(tx, { id: await providerIntentOf(tx, paymentId), amountMinor });
    return { reference: refundId };
  },
};
