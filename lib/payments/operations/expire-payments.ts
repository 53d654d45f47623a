import { and, asc, eq, inArray, lt, not, sql, type SQL } from "drizzle-orm";
import { serviceClock, serviceNowSql, systemClock, type Clock } from "../../clock";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import type { BackgroundJob } from "../../background-job";
import type { PaymentRow } from "../../db/payment-record";
import { expirePayment } from "../core/expire-payment";
import type { PaymentState } from "../core/payment-state";
import { EXPIRY_GRACE_MS, RESERVATION_AUTO_RELEASE_MS } from "../core/payment-expiry";
import { providerOperationExists, type ProviderOperationRow } from "../../provider-operations";
import { releaseStaleReservation, returnStaleFunds } from "../core/release-stale-reservation";
import { methodFunds } from "../../payment-methods/registry/method-funds";

const BATCH_SIZE = 100;

interface SweepOptions {
  clock?: Clock;
  limit?: number;
  /** Sweep one service only (tests, operator tools); every service by default. */
  serviceId?: string;
}

interface SweepRule {
  states: PaymentState[];
  /** The payment is due once this moment plus `afterMs` has passed on its service's clock. */
  since: typeof payments.expiresAt | typeof payments.authorizedAt;
  afterMs: number;
  settle: (tx: Db, options: { payment: PaymentRow; now: Date }) => Promise<unknown>;
  /**
   * Due payments `settle` would leave as they are (an operation of theirs is still open), left
   * out of the batch: a full batch of them would hold back every payment behind it.
   */
  passBy?: SQL;
  /** After the batch commits: provider work the settled payments recorded (never inside the transaction). */
  afterCommit?: (db: Db, settled: unknown[]) => Promise<void>;
}

/**
 * One batch of due payments, oldest first, each settled on its service's clock. Rows another
 * worker or request holds are skipped and picked up next time, so several processes can sweep
 * together.
 */
async function sweep(db: Db, options: SweepOptions, rule: SweepRule): Promise<number> {
  const clock = options.clock ?? systemClock;
  const settled: unknown[] = [];
  const count = await db.transaction(async (tx) => {
    settled.length = 0;
    const now = clock.now();
    const due = await tx
      .select({ payment: payments, clockOffsetSeconds: services.clockOffsetSeconds })
      .from(payments)
      .innerJoin(services, eq(services.id, payments.serviceId))
      .where(
        and(
          inArray(payments.state, rule.states),
          options.serviceId ? eq(payments.serviceId, options.serviceId) : undefined,
          lt(
            sql`${rule.since} + make_interval(secs => ${rule.afterMs / 1000})`,
            serviceNowSql(services.clockOffsetSeconds, now),
          ),
          rule.passBy ? not(rule.passBy) : undefined,
        ),
      )
      .orderBy(asc(rule.since))
      .limit(options.limit ?? BATCH_SIZE)
      .for("update", { of: payments, skipLocked: true });
    for (const row of due) {
      settled.push(await rule.settle(tx, { payment: row.payment, now: serviceClock(row, { now: () => now }).now() }));
    }
    return due.length;
  });
  await rule.afterCommit?.(db, settled);
  return count;
}

/**
 * Fails every open intent (CREATED, PROCESSING, REQUIRES_ACTION) past its 30 minutes plus the
 * grace on its service's clock, with the failed notification.
 */
export function expireOpenPayments(db: Db, options: SweepOptions = {}): Promise<number> {
  return sweep(db, options, {
    states: ["CREATED", "PROCESSING", "REQUIRES_ACTION"],
    since: payments.expiresAt,
    afterMs: EXPIRY_GRACE_MS,
    settle: (tx, { payment, now }) => expirePayment(tx, { payment, now, funds: methodFunds.of(payment) }),
    // expirePayment waits for an open wallet charge; a QR one is withdrawn at the wallet below.
    passBy: and(
      providerOperationExists(payments.id, { kinds: ["debit", "hold"] }),
      sql`${payments.transactionType} is distinct from 'QR_CODE'`,
    ),
    // A QR payment whose charge is open stays as it was: its request is withdrawn at the wallet now.
    afterCommit: async (db, expired) => {
      for (const payment of expired as PaymentRow[]) await methodFunds.of(payment)?.expiry.afterCommit?.(db, payment);
    },
  });
}

/**
 * Contract section 4: a reservation left PRE_AUTHORIZED for 7 days is released (CANCELED, 10)
 * and its hold returned: the sweep records a release operation per payment and completes it
 * after its transaction commits (reconciliation finishes any the provider did not answer).
 */
export function releaseStaleReservations(db: Db, options: SweepOptions = {}): Promise<number> {
  return sweep(db, options, {
    states: ["PRE_AUTHORIZED"],
    since: payments.authorizedAt,
    afterMs: RESERVATION_AUTO_RELEASE_MS,
    settle: (tx, { payment, now }) => releaseStaleReservation(tx, { payment, now, methods: methodFunds }),
    // A capture or release still open: it decides the reservation (releaseStaleReservation would refuse).
    passBy: providerOperationExists(payments.id),
    afterCommit: (db, operations) => returnStaleFunds(db, operations as ProviderOperationRow[], methodFunds),
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
