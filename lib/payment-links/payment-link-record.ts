import { and, eq, inArray, sql } from "drizzle-orm";
import { serviceClock, systemClock, type Clock } from "../clock";
import type { Db } from "../db/client";
import { customers, payments, paymentLinks, services } from "../db/schema";
import type { PaymentState } from "../payments/core/payment-state";
import { EXPIRY_GRACE_MS } from "../payments/core/payment-expiry";

export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

/** What a link's payments add up to (the API's paymentsCount and succeededAmount). */
export interface LinkPaymentTotals {
  succeededCount: number;
  succeededMinor: number;
  /** A payment that used up a single-use link: pre-authorized, or succeeded (refunded since or not). */
  takenCount: number;
}

const NO_PAYMENTS: LinkPaymentTotals = { succeededCount: 0, succeededMinor: 0, takenCount: 0 };

// The states of the payments a link counts. A captured or refunded payment succeeded; a
// reservation still held has not yet, but it used up a single-use link all the same.
const SUCCEEDED: PaymentState[] = ["SUCCEEDED", "REFUNDED", "PARTIALLY_REFUNDED"];
const TAKEN: PaymentState[] = [...SUCCEEDED, "PRE_AUTHORIZED"];
const LIVE: PaymentState[] = ["CREATED", "PROCESSING", "REQUIRES_ACTION"];

const stateIn = (states: PaymentState[]) =>
  sql.join(
    states.map((state) => sql`${state}`),
    sql`, `,
  );
const linkIdOf = sql<string>`(${payments.metaData} ->> 'paymentLinkId')`;
// A link's payments are the intents that name it: the expression payments_link_idx covers.
const namesALink = sql`${payments.metaData} ? 'paymentLinkId'`;

/** The totals of each link (of one service), in one statement; a link without payments has zeros. */
export async function linkPaymentTotals(
  db: Db,
  options: { serviceId: string; linkIds: string[] },
): Promise<Map<string, LinkPaymentTotals>> {
  if (options.linkIds.length === 0) return new Map();
  const rows = await db
    .select({
      linkId: linkIdOf,
      succeededCount: sql<number>`(count(*) filter (where ${payments.state} in (${stateIn(SUCCEEDED)})))::int`,
      // A partial capture took less than the amount; a direct payment's captured sum is its amount.
      succeededMinor: sql<string>`coalesce(
        sum(case when ${payments.capturedMinor} > 0 then ${payments.capturedMinor} else ${payments.amountMinor} end)
          filter (where ${payments.state} in (${stateIn(SUCCEEDED)})),
        0)`,
      takenCount: sql<number>`(count(*) filter (where ${payments.state} in (${stateIn(TAKEN)})))::int`,
    })
    .from(payments)
    .where(and(eq(payments.serviceId, options.serviceId), namesALink, inArray(linkIdOf, options.linkIds)))
    .groupBy(linkIdOf);
  const totals = new Map(options.linkIds.map((id) => [id, NO_PAYMENTS]));
  for (const row of rows) {
    totals.set(row.linkId, {
      succeededCount: Number(row.succeededCount),
      succeededMinor: Number(row.succeededMinor),
      takenCount: Number(row.takenCount),
    });
  }
  return totals;
}

/**
 * The intent a buyer is paying a single-use link with right now, if any: still open and inside
 * its lifetime (plus the grace), on the service's clock, with its buyer's phone. Read under the
 * link's lock.
 */
export async function livePayment(
  db: Db,
  options: { serviceId: string; linkId: string; now: Date },
): Promise<{ id: string; phone: string } | null> {
  const openSince = new Date(options.now.getTime() - EXPIRY_GRACE_MS);
  const [row] = await db
    .select({ id: payments.id, phone: customers.phone })
    .from(payments)
    .innerJoin(customers, eq(customers.id, payments.customerId))
    .where(
      and(
        eq(payments.serviceId, options.serviceId),
        namesALink,
        eq(linkIdOf, options.linkId),
        sql`${payments.state} in (${stateIn(LIVE)})`,
        sql`${payments.expiresAt} >= ${openSince.toISOString()}::timestamptz`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Why a link takes no payment now, or null while it does (contract 14: each of these is a 410). */
export type LinkClosure = "deactivated" | "expired" | "paid";

export function linkClosure(
  link: Pick<PaymentLinkRow, "deactivatedAt" | "expiresAt" | "reusable">,
  totals: LinkPaymentTotals,
  now: Date,
): LinkClosure | null {
  if (link.deactivatedAt) return "deactivated";
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (!link.reusable && totals.takenCount > 0) return "paid";
  return null;
}

/** One link of one service (null: none such, or another service's). */
export async function findPaymentLink(
  db: Db,
  options: { serviceId: string; id: string },
): Promise<PaymentLinkRow | null> {
  const [row] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, options.id), eq(paymentLinks.serviceId, options.serviceId)));
  return row ?? null;
}

/** Whether a link exists, whichever service's (its QR code is as public as its url). */
export async function paymentLinkExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentLinks.id }).from(paymentLinks).where(eq(paymentLinks.id, id));
  return row !== undefined;
}

/**
 * The service's countries and its clock (the sandbox may run it ahead), for callers that know
 * only the service's id (the console); the API passes its principal's clock instead.
 */
export async function linkServiceOrThrow(
  db: Db,
  serviceId: string,
  base: Clock = systemClock,
): Promise<{ countries: string[]; clock: Clock }> {
  const [service] = await db
    .select({ countries: services.countries, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(services)
    .where(eq(services.id, serviceId));
  if (!service) throw new Error(`no service ${serviceId}`);
  return { countries: service.countries, clock: serviceClock(service, base) };
}
