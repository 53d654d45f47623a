import { desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import type { PaymentNotificationData } from "@/lib/notifications/enqueue-notification";
import { userAuth, type ApiClient } from "./api";
import { createCustomerToken } from "./factories";
import { capture, createIntent, proceed, refund, release } from "./payments";

/**
 * Events of real payments, made through the gateway: the outbox only ever holds what a payment
 * did, so the ledger audit that runs after the suite (tests/support/audit-teardown.ts) finds the
 * suite's database as consistent as a live one. Delivery tests that need "an event" take one here
 * instead of writing a made-up one.
 */
export type RealOutcome = "succeeded" | "failed" | "pre_authorized" | "captured" | "released" | "refunded";

export interface RealEvent {
  /** The event's id, which the webhook-id header carries. */
  id: string;
  paymentId: string;
  actionId: string;
  data: PaymentNotificationData;
}

// A paying customer per merchant, made on first use and replaced every PAYMENTS_PER_PAYER
// payments: its wallet opens with 10,000.00 DZD and every payment here costs 1.00, and a
// user_auth token may make 300 calls a minute.
const PAYMENTS_PER_PAYER = 100;
const payers = new WeakMap<
  OnboardedMerchant,
  { payer: Promise<{ accessToken: string; phone: string }>; uses: number }
>();

function payerOf(merchant: OnboardedMerchant) {
  let current = payers.get(merchant);
  if (!current || current.uses >= PAYMENTS_PER_PAYER) {
    const payer = createCustomerToken(merchant, { name: "Event Payer" }).then((made) => ({
      accessToken: made.accessToken,
      phone: made.customer.phone,
    }));
    current = { payer, uses: 0 };
    payers.set(merchant, current);
  }
  current.uses += 1;
  return current.payer;
}

const STATUS_CODE: Record<RealOutcome, number> = {
  succeeded: 2,
  failed: 3,
  pre_authorized: 13,
  captured: 13,
  released: 13,
  refunded: 2,
};

/**
 * A payment of `merchant`'s customer, proceeded with user_auth (no buyer step): `succeeded`
 * pays 1.00 directly, `failed` asks for more than the wallet holds, `pre_authorized` reserves,
 * `captured` and `released` reserve then capture or release, `refunded` pays then refunds in
 * full. Returns the newest event it wrote.
 */
export async function realEvent(
  api: ApiClient,
  merchant: OnboardedMerchant,
  outcome: RealOutcome = "succeeded",
): Promise<RealEvent> {
  const payer = await payerOf(merchant);
  const reserve = outcome === "pre_authorized" || outcome === "captured" || outcome === "released";
  const intent = await createIntent(api, merchant, {
    userId: payer.phone,
    amount: outcome === "failed" ? 20_000 : 1,
    captureMethod: reserve ? "RESERVATION" : "DIRECT",
  });
  const proceeded = await proceed(
    api,
    intent.paymentId,
    userAuth(merchant, payer.accessToken, { "x-platform": "API" }),
  );
  if (proceeded.status !== 200 || proceeded.body.data.statusCode !== STATUS_CODE[outcome]) {
    throw new Error(
      `payment ${intent.paymentId} did not reach ${outcome}: ${proceeded.status} ${JSON.stringify(proceeded.body)}`,
    );
  }
  const followUp =
    outcome === "captured"
      ? capture(api, merchant, intent.paymentId)
      : outcome === "released"
        ? release(api, merchant, intent.paymentId)
        : outcome === "refunded"
          ? refund(api, merchant, intent.paymentId)
          : null;
  const answered = await followUp;
  if (answered && answered.status !== 200) {
    throw new Error(`${outcome} of ${intent.paymentId} failed: ${answered.status} ${JSON.stringify(answered.body)}`);
  }
  return newestEventOf(intent.paymentId);
}

/** The newest event the gateway wrote for `paymentId`. */
export async function newestEventOf(paymentId: string): Promise<RealEvent> {
  const [row] = await (
    await getDb()
  )
    .select({ id: notifications.id, payload: notifications.payload })
    .from(notifications)
    .where(eq(notifications.paymentId, paymentId))
    .orderBy(desc(notifications.id))
    .limit(1);
  if (!row) throw new Error(`payment ${paymentId} wrote no event`);
  const data = (row.payload as { data: PaymentNotificationData }).data;
  return { id: row.id, paymentId, actionId: data.actionId, data };
}
