import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { serviceClock, systemClock, type Clock } from "../clock";
import type { Db } from "../db/client";
import { payments, services } from "../db/schema";
import type { BackgroundJob } from "../server/background-jobs";
import { applyTransition } from "./apply-transition";
import { expirePayment } from "./expire-payment";
import { EXPIRY_GRACE_MS, RESERVATION_AUTO_RELEASE_MS } from "./payment-expiry";
import { STATUS_TEXT } from "./payment-messages";
import { releaseFunds } from "./payment-funds";

const BATCH_SIZE = 100;

interface SweepOptions {
  clock?: Clock;
  limit?: number;
  /** Sweep one service only (tests, operator tools); every service by default. */
  serviceId?: string;
}

// The service's now (real time plus its sandbox offset) as SQL, from one reading of `clock`.
const serviceNow = (now: Date) => sql`(${now.toISOString()}::timestamptz + make_interval(secs => ${services.clockOffsetSeconds}))`;

/**
 * Fails every open intent (CREATED, PROCESSING, REQUIRES_ACTION) past its 30 minutes plus the
 * grace on its service's clock, with the failed notification. Rows another worker or request
 * holds are skipped and picked up next time, so several processes can sweep together.
 */
export async function expireOpenPayments(db: Db, options: SweepOptions = {}): Promise<number> {
  const clock = options.clock ?? systemClock;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const due = await tx
      .select({ payment: payments, clockOffsetSeconds: services.clockOffsetSeconds })
      .from(payments)
      .innerJoin(services, eq(services.id, payments.serviceId))
      .where(
        and(
          inArray(payments.state, ["CREATED", "PROCESSING", "REQUIRES_ACTION"]),
          options.serviceId ? eq(payments.serviceId, options.serviceId) : undefined,
          lt(sql`${payments.expiresAt} + make_interval(secs => ${EXPIRY_GRACE_MS / 1000})`, serviceNow(now)),
        ),
      )
      .orderBy(asc(payments.expiresAt))
      .limit(options.limit ?? BATCH_SIZE)
      .for("update", { of: payments, skipLocked: true });
    for (const row of due) {
      await expirePayment(tx, { payment: row.payment, now: serviceClock(row, { now: () => now }).now() });
    }
    return due.length;
  });
}

/**
 * Contract section 4: a reservation left PRE_AUTHORIZED for 7 days is released (CANCELED, 10)
 * and its hold returned to the wallet.
 */
export async function releaseStaleReservations(db: Db, options: SweepOptions = {}): Promise<number> {
  const clock = options.clock ?? systemClock;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const due = await tx
      .select({ payment: payments, clockOffsetSeconds: services.clockOffsetSeconds })
      .from(payments)
      .innerJoin(services, eq(services.id, payments.serviceId))
      .where(
        and(
          eq(payments.state, "PRE_AUTHORIZED"),
          options.serviceId ? eq(payments.serviceId, options.serviceId) : undefined,
          lt(sql`${payments.authorizedAt} + make_interval(secs => ${RESERVATION_AUTO_RELEASE_MS / 1000})`, serviceNow(now)),
        ),
      )
      .orderBy(asc(payments.authorizedAt))
      .limit(options.limit ?? BATCH_SIZE)
      .for("update", { of: payments, skipLocked: true });
    for (const row of due) {
      await releaseFunds(tx, row.payment);
      await applyTransition(tx, {
        payment: row.payment,
        event: "release_stale",
        now: serviceClock(row, { now: () => now }).now(),
        changes: { status: STATUS_TEXT.autoReleased },
      });
    }
    return due.length;
  });
}

/** Runs full batches back to back (a bounded number per tick) so a backlog drains quickly. */
async function drain(sweep: () => Promise<number>, maxBatches = 20): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const handled = await sweep();
    total += handled;
    if (handled < BATCH_SIZE) break;
  }
  return total;
}

export const paymentJobs: BackgroundJob[] = [
  { name: "payments.expire-open-intents", intervalMs: 5_000, run: (db) => drain(() => expireOpenPayments(db)) },
  {
    name: "payments.release-stale-reservations",
    intervalMs: 60_000,
    run: (db) => drain(() => releaseStaleReservations(db)),
  },
];
