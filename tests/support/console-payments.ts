import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { cardPayments, customers, paymentCaptures, paymentRefunds, payments } from "@/lib/db/schema";
import type { PaymentState } from "@/lib/payments/core/payment-state";
import { createMerchant, randomPhone } from "./factories";
import { serviceIdOf } from "./payments";

/** A merchant of its own and its service id, for tests that write payments straight into the tables. */
export async function consoleMerchant() {
  const merchant = await createMerchant();
  return { merchant, serviceId: await serviceIdOf(merchant) };
}

export interface StoredPaymentOverrides {
  createdAt?: Date;
  state?: PaymentState;
  amountMinor?: number;
  currency?: string;
  method?: "wallet" | "qr_wallet" | "card" | null;
  card?: { brand: string; last4: string };
  phone?: string;
  name?: string;
  email?: string | null;
  actionId?: string;
  /** What a partial refund gave back; half the amount when not given. */
  refundedMinor?: number;
  /** What the capture took, when less than the amount: a reservation captured in part. */
  capturedMinor?: number;
  /** Each refund's amount (several partial refunds); their sum is what was refunded. */
  refundsMinor?: number[];
}

/** Older than the 30-day event retention: the suite's ledger audit expects no events for these rows. */
const LONG_AGO = new Date("2026-01-15T00:00:00Z");

/**
 * A payment as the gateway would have left it, written straight into the tables so a test can
 * choose its creation time (ties included) and its state, with the capture and refund rows its
 * state implies (the suite's ledger audit checks them). The customer of `phone` is created on
 * first sight, as create does.
 */
export async function storedPayment(serviceId: string, overrides: StoredPaymentOverrides = {}) {
  const db = await getDb();
  const phone = overrides.phone ?? randomPhone();
  const [customer] = await db
    .insert(customers)
    .values({ serviceId, name: overrides.name ?? `Customer ${phone}`, phone, email: overrides.email ?? null })
    .onConflictDoUpdate({ target: [customers.serviceId, customers.phone], set: { updatedAt: new Date() } })
    .returning();
  const method = overrides.method === undefined ? "wallet" : overrides.method;
  const createdAt = overrides.createdAt ?? LONG_AGO;
  const state = overrides.state ?? "SUCCEEDED";
  const amountMinor = overrides.amountMinor ?? 1500;
  const captured = ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"].includes(state)
    ? (overrides.capturedMinor ?? amountMinor)
    : 0;
  // A capture of less than the amount is a reservation's (a direct payment takes it all).
  const reservation = state === "PRE_AUTHORIZED" || state === "CANCELED" || (captured > 0 && captured < amountMinor);
  const refunds =
    overrides.refundsMinor ??
    (state === "REFUNDED"
      ? [captured]
      : state === "PARTIALLY_REFUNDED"
        ? [overrides.refundedMinor ?? Math.floor(captured / 2)]
        : []);
  const refunded = refunds.reduce((sum, refund) => sum + refund, 0);
  const [payment] = await db
    .insert(payments)
    .values({
      serviceId,
      customerId: customer!.id,
      actionId: overrides.actionId ?? `order-${randomUUID()}`,
      requestFingerprint: "fp",
      state,
      amountMinor,
      currency: overrides.currency ?? "DZD",
      country: "DZA",
      paymentMethodCode: method === "card" ? "CARD_PROVIDER" : method === null ? null : "WALLET_V2",
      transactionType: method === "qr_wallet" ? "QR_CODE" : null,
      captureMethod: reservation ? "RESERVATION" : "DIRECT",
      // A held reservation is authorized now, whenever it was created: the suite's 7-day release
      // sweep then leaves it alone (it has no hold at any provider to give back).
      authorizedAt: reservation ? (state === "PRE_AUTHORIZED" ? new Date() : createdAt) : null,
      capturedMinor: captured,
      refundedMinor: refunded,
      createdAt,
      updatedAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + 30 * 60_000),
    })
    .returning();
  if (captured > 0)
    await db
      .insert(paymentCaptures)
      .values({ paymentId: payment!.id, amountMinor: captured, releasedMinor: amountMinor - captured, createdAt });
  for (const [index, refund] of refunds.entries()) {
    await db
      .insert(paymentRefunds)
      .values({ paymentId: payment!.id, amountMinor: refund, description: `refund ${index + 1}`, createdAt });
  }
  if (method === "card") {
    const card = overrides.card ?? { brand: "visa", last4: "4242" };
    await db.insert(cardPayments).values({
      paymentId: payment!.id,
      providerIntentId: `pi_${randomUUID()}`,
      cardBrand: card.brand,
      cardLast4: card.last4,
    });
  }
  return { ...payment!, phone, customer: customer! };
}
