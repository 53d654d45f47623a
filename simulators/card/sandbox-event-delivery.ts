import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { getConfig } from "../../lib/config";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import type { Db } from "../../lib/db/client";
import { preparedOn } from "../../lib/db/prepared";
import Stripe from "stripe";
import { cardProviderEvents, cardProviderPaymentIntents } from "../card/card-tables";
import { logger } from "../../lib/log";
import { timeLimit } from "../../lib/time-limit";
import { sandboxAccountOf } from "../../lib/providers/card/card-provider-accounts";
import { SIGNATURE_HEADER, signEvent } from "./sandbox-secrets";

/** The gateway's inbound endpoint for the provider's events (Events 3 of the interface). */
export const INBOUND_PATH = "/api/v1/webhooks/card-provider";

const DELIVERY_TIMEOUT_MS = 10_000;
const RETRY_DELAYS_MS = [200, 1_000];
const signer = new Stripe("sk_test_signing_only");

/** Stripe-Signature with the sandbox account's webhook secret (the intent's publishable key names the account). */
async function stripeSignature(db: Db, gatewayKey: Buffer, paymentIntentId: string, rawBody: string): Promise<string> {
  const [intent] = await db
    .select({ accountKey: cardProviderPaymentIntents.accountKey })
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, paymentIntentId));
  const secret = sandboxAccountOf(gatewayKey, intent?.accountKey ?? "").webhookSecret;
  return signer.webhooks.generateTestHeaderString({ payload: rawBody, secret });
}

/** After this many failed attempts the redelivery job gives up on an event. */
const MAX_ATTEMPTS = 20;

/**
 * POSTs one stored event to the gateway, signed as a real provider would sign it, and marks
 * it delivered on a 2xx. It goes over HTTP to PUBLIC_BASE_URL, so the gateway's ordinary
 * route handler (signature check included) is what receives it.
 */
async function deliverEvent(db: Db, eventId: string): Promise<boolean> {
  const [event] = await db.select().from(cardProviderEvents).where(eq(cardProviderEvents.id, eventId));
  if (!event || event.deliveredAt) return true;
  const rawBody = JSON.stringify(event.payload);
  const gatewayKey = await getGatewayKey(db);
  let delivered = false;
  const limit = timeLimit(DELIVERY_TIMEOUT_MS);
  try {
    const response = await fetch(`${getConfig().publicBaseUrl}${INBOUND_PATH}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signEvent(gatewayKey, rawBody, new Date()),
        // Signed as Stripe signs, for the Stripe adapter the sandbox runs against its simulator.
        "stripe-signature": await stripeSignature(db, gatewayKey, event.paymentIntentId, rawBody),
      },
      body: rawBody,
      redirect: "manual",
      signal: limit.signal,
    });
    await response.arrayBuffer();
    delivered = response.status >= 200 && response.status < 300;
  } catch {
    delivered = false;
  } finally {
    limit.clear();
  }
  await db
    .update(cardProviderEvents)
    .set({ attempts: sql`${cardProviderEvents.attempts} + 1`, ...(delivered ? { deliveredAt: new Date() } : {}) })
    .where(eq(cardProviderEvents.id, eventId));
  return delivered;
}

/**
 * After the provider's change has committed: delivers the events in the background, with a
 * couple of quick retries. The redelivery job picks up whatever still failed.
 */
export function deliverEventsSoon(db: Db, eventIds: string[]): void {
  if (eventIds.length === 0) return;
  void (async () => {
    for (const eventId of eventIds) {
      for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt += 1) {
        if (await deliverEvent(db, eventId)) break;
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  })().catch((error: unknown) => logger.warn({ err: error }, "card provider event delivery failed"));
}

// Built once: the job polls it every five seconds.
const pendingEventsQuery = (db: Db) =>
  preparedOn(db, "card_provider_events_pending", (db) =>
    db
      .select({ id: cardProviderEvents.id })
      .from(cardProviderEvents)
      .where(
        and(
          isNull(cardProviderEvents.deliveredAt),
          lt(cardProviderEvents.createdAt, sql.placeholder("cutoff")),
          lt(cardProviderEvents.attempts, MAX_ATTEMPTS),
          sql`(${sql.placeholder("paymentIntentId")}::text IS NULL
            OR ${cardProviderEvents.paymentIntentId} = ${sql.placeholder("paymentIntentId")})`,
        ),
      )
      .orderBy(asc(cardProviderEvents.createdAt))
      .limit(sql.placeholder("limit"))
      .prepare("card_provider_events_pending"),
  );

/** Redelivers events still undelivered a few seconds after they were raised (sandbox only). */
export async function redeliverPendingEvents(
  db: Db,
  options: {
    olderThanMs?: number;
    limit?: number;
    /** Only this provider intent's events (tests: every other intent's wait). */
    paymentIntentId?: string;
  } = {},
): Promise<number> {
  if (!getConfig().isSandbox) return 0;
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? 5_000));
  const pending = await pendingEventsQuery(db).execute({
    cutoff: cutoff.toISOString(),
    limit: options.limit ?? 50,
    paymentIntentId: options.paymentIntentId ?? null,
  });
  let delivered = 0;
  for (const { id } of pending) if (await deliverEvent(db, id)) delivered += 1;
  return delivered;
}

/** Test and support helper: the stored events of one provider intent, newest last. */
export async function eventsOfIntent(db: Db, paymentIntentIds: string[]) {
  if (paymentIntentIds.length === 0) return [];
  return db
    .select()
    .from(cardProviderEvents)
    .where(inArray(cardProviderEvents.paymentIntentId, paymentIntentIds))
    .orderBy(asc(cardProviderEvents.createdAt));
}
