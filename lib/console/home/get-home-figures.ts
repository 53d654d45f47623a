import { sql } from "drizzle-orm";
import { systemClock, type Clock } from "../../clock";
import type { Db } from "../../db/client";
import { sqlRows } from "../../db/sql-rows";
import { methodOf } from "../payments/payment-list-row";
import type { ConsoleMethod } from "../payments/payment-list-filters";
import { RESERVATION_AUTO_RELEASE_MS } from "../../payments/core/payment-expiry";
import type { PaymentState } from "../../payments/core/payment-state";
import { cachedClosedDays, NOTIFIED_MARGIN_MS, rememberClosedDays } from "./closed-days-cache";
import { homePeriods, type HomePeriods } from "./home-periods";

/** The states of a payment whose money moved to the merchant (some of it may since have been refunded). */
export const SUCCEEDED_STATES: readonly PaymentState[] = ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"];
/** Counted as a success of its method: the buyer paid, or the funds are held for the merchant. */
const METHOD_SUCCESS_STATES: readonly PaymentState[] = [...SUCCEEDED_STATES, "PRE_AUTHORIZED"];

/** A reservation released within this is about to expire (it is released 7 days after it was made). */
export const RESERVATION_WARNING_MS = 24 * 60 * 60 * 1000;
/** A payment waiting this long for its buyer (OTP, 3-D Secure, a QR scan) is worth a look. */
export const AWAITING_BUYER_AFTER_MS = 10 * 60 * 1000;
/** A provider call unanswered this long is past every call's time limit: the provider may be down. */
export const PROVIDER_SILENT_AFTER_MS = 60 * 1000;
/** Failed webhooks worth showing: abandoned within this, or still being retried. */
export const WEBHOOK_FAILURE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** How many of each kind of item needing someone the home lists (the count says how many in all). */
const LISTED = 5;

export interface PeriodFigures {
  /** Payments created in the period that succeeded (SUCCEEDED_STATES) and the money captured by them. */
  succeededCount: number;
  succeededMinor: number;
  /** Of the period's payments, those refunded in part or in full, and the money refunded. */
  refundedCount: number;
  refundedMinor: number;
}

export interface CurrencyFigures {
  currency: string;
  today: PeriodFigures;
  week: PeriodFigures;
  month: PeriodFigures;
  /** One entry per chart day (HomePeriods.chartDays), the payments created that day that succeeded. */
  days: { day: string; succeededCount: number; succeededMinor: number }[];
}

export interface MethodSuccess {
  method: ConsoleMethod;
  succeeded: number;
  failed: number;
  /** succeeded / (succeeded + failed); null with neither. */
  rate: number | null;
}

export interface HomeAttention {
  reservationsExpiring: {
    count: number;
    oldest: { paymentId: string; releaseAt: Date; amountMinor: number; currency: string }[];
  };
  awaitingBuyer: {
    count: number;
    oldest: { paymentId: string; createdAt: Date; amountMinor: number; currency: string }[];
  };
  webhooksFailing: { abandoned: number; retrying: number; oldestAt: Date | null };
  providersSilent: { provider: "card" | "wallet"; count: number; since: Date }[];
}

export interface HomeFigures {
  periods: HomePeriods;
  currencies: CurrencyFigures[];
  /** Over the chart's 30 days: payments that reached their buyer's outcome, per method. */
  methods: MethodSuccess[];
  attention: HomeAttention;
}

interface GroupRow {
  day: string;
  state: PaymentState;
  currency: string;
  paymentMethodCode: string | null;
  transactionType: "QR_CODE" | null;
  count: number;
  capturedMinor: string;
  refundedMinor: string;
  refundedCount: number;
}

const emptyPeriod = (): PeriodFigures => ({ succeededCount: 0, succeededMinor: 0, refundedCount: 0, refundedMinor: 0 });

/**
 * The console home (issue 42): what an owner reads each morning. Two statements: the merchant's
 * payments since the month's or the chart's first day (the earlier), grouped by day, state,
 * currency and method from `payments_service_created_money_idx` alone (today's always, the days
 * before only when this process has not read them or they changed since); then what needs someone, each on a
 * partial index of its own state. `timeZone` (IANA) decides where days begin (home-periods.ts).
 */
export async function getHomeFigures(
  db: Db,
  options: { serviceId: string; timeZone?: string; clock?: Clock },
): Promise<HomeFigures> {
  const now = (options.clock ?? systemClock).now();
  const periods = homePeriods(now, options.timeZone);
  const [groups, attention] = await Promise.all([
    paymentGroups(db, options.serviceId, periods),
    readAttention(db, options.serviceId, now),
  ]);
  return { periods, ...summarize(groups, periods), attention };
}

// One index range a day (its bounds from home-periods.ts, so the zone is applied once, in
// TypeScript): each day's few groups are hashed as they are read, where grouping the whole month
// at once by a computed day sorted 40,000 rows on disk. The days are one JSON parameter (estimated at
// 100 rows, a plan's cost well under JIT's threshold), so the statement's text never changes.
// Only today and the closed days this process has not read, or whose payments were notified since,
// are read (closed-days-cache.ts): on the million-payment set a month is 42,000 rows, 20 ms of
// PostgreSQL's CPU a home, and at 8 owners on 2 cores its p99 was 183 ms; a day is 1,400.
async function paymentGroups(db: Db, serviceId: string, periods: HomePeriods): Promise<GroupRow[]> {
  const key = `${serviceId} ${periods.timeZone}`;
  const cached = cachedClosedDays<GroupRow>(key, new Date());
  const today = periods.dates.today;
  const toRead = periods.days.filter((day) => day.date === today || !cached?.days.has(day.date)).map((day) => day.date);
  const since = cached ? new Date(cached.readAt.getTime() - NOTIFIED_MARGIN_MS).toISOString() : "infinity";
  const result = await db.execute(sql`
    WITH d AS (
      SELECT * FROM json_to_recordset(${daysJson(periods)}::json) AS d(day text, from_at timestamptz, to_at timestamptz)
    ), changed AS (
      SELECT DISTINCT d.day FROM notifications n
      JOIN payments p ON p.id = n.payment_id
      JOIN d ON p.created_at >= d.from_at AND p.created_at < d.to_at
      WHERE n.service_id = ${serviceId} AND n.created_at >= ${since}::timestamptz
    )
    SELECT d.day, now() AS "readAt", g.* FROM d
    LEFT JOIN LATERAL (
      SELECT state, currency, payment_method_code AS "paymentMethodCode", transaction_type AS "transactionType",
             count(*)::int AS count, sum(captured_minor)::text AS "capturedMinor",
             sum(refunded_minor)::text AS "refundedMinor",
             (count(*) FILTER (WHERE refunded_minor > 0))::int AS "refundedCount"
      FROM payments
      WHERE service_id = ${serviceId} AND created_at >= d.from_at AND created_at < d.to_at
      GROUP BY 1, 2, 3, 4
    ) g ON true
    WHERE d.day IN (SELECT json_array_elements_text(${JSON.stringify(toRead)}::json))
       OR d.day IN (SELECT day FROM changed)`);
  const rows = sqlRows<GroupRow & { readAt: string | Date; state: PaymentState | null }>(result);
  const read = new Map<string, GroupRow[]>();
  for (const row of rows) {
    const groups = read.get(row.day) ?? read.set(row.day, []).get(row.day)!;
    if (row.state !== null) groups.push(row);
  }
  const closed = new Map<string, GroupRow[]>();
  const groups: GroupRow[] = [];
  for (const { date } of periods.days) {
    const day = read.get(date) ?? cached?.days.get(date) ?? [];
    if (date !== today) closed.set(date, day);
    groups.push(...day);
  }
  rememberClosedDays(key, {
    readAt: new Date(rows[0]!.readAt),
    filledAt: cached?.filledAt ?? new Date(),
    days: closed,
  });
  return groups;
}

/**
 * The days as one JSON parameter: one statement text whatever their number, and no array parameter
 * (the drivers take none alike).
 */
function daysJson(periods: HomePeriods): string {
  return JSON.stringify(
    periods.days.map((day) => ({ day: day.date, from_at: day.start.toISOString(), to_at: day.end.toISOString() })),
  );
}

function summarize(groups: GroupRow[], periods: HomePeriods): Pick<HomeFigures, "currencies" | "methods"> {
  const byCurrency = new Map<string, CurrencyFigures>();
  const byMethod = new Map<ConsoleMethod, MethodSuccess>();
  const chartIndex = new Map(periods.chartDays.map((day, index) => [day, index]));
  for (const group of groups) {
    const succeeded = SUCCEEDED_STATES.includes(group.state);
    const figures =
      byCurrency.get(group.currency) ??
      byCurrency
        .set(group.currency, {
          currency: group.currency,
          today: emptyPeriod(),
          week: emptyPeriod(),
          month: emptyPeriod(),
          days: periods.chartDays.map((day) => ({ day, succeededCount: 0, succeededMinor: 0 })),
        })
        .get(group.currency)!;
    const captured = Number(group.capturedMinor);
    const refunded = Number(group.refundedMinor);
    // A group's day (a calendar date in the zone) says which periods it falls in.
    for (const [period, from] of [
      ["today", periods.dates.today],
      ["week", periods.dates.week],
      ["month", periods.dates.month],
    ] as const) {
      if (group.day < from) continue;
      if (succeeded) {
        figures[period].succeededCount += group.count;
        figures[period].succeededMinor += captured;
      }
      figures[period].refundedCount += group.refundedCount;
      figures[period].refundedMinor += refunded;
    }
    const index = chartIndex.get(group.day);
    if (index === undefined) continue;
    if (succeeded) {
      figures.days[index]!.succeededCount += group.count;
      figures.days[index]!.succeededMinor += captured;
    }
    const method = methodOf({
      paymentMethodCode: group.paymentMethodCode,
      transactionType: group.transactionType,
      cardBrand: null,
      cardLast4: null,
    });
    if (!method) continue;
    const outcome = METHOD_SUCCESS_STATES.includes(group.state)
      ? "succeeded"
      : group.state === "FAILED"
        ? "failed"
        : null;
    if (!outcome) continue;
    const rate =
      byMethod.get(method.kind) ??
      byMethod.set(method.kind, { method: method.kind, succeeded: 0, failed: 0, rate: null }).get(method.kind)!;
    rate[outcome] += group.count;
  }
  const methods = [...byMethod.values()].map((entry) => ({
    ...entry,
    rate: entry.succeeded + entry.failed === 0 ? null : entry.succeeded / (entry.succeeded + entry.failed),
  }));
  const order = ["wallet", "qr_wallet", "card"];
  return {
    currencies: [...byCurrency.values()].sort(
      (a, b) => b.month.succeededMinor - a.month.succeededMinor || a.currency.localeCompare(b.currency),
    ),
    methods: methods.sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method)),
  };
}

interface AttentionRow {
  expiring: { id: string; authorizedAt: string; amountMinor: number; currency: string }[];
  expiringCount: number;
  awaiting: { id: string; createdAt: string; amountMinor: number; currency: string }[];
  awaitingCount: number;
  abandoned: number;
  retrying: number;
  webhookOldest: string | null;
  providers: { provider: "card" | "wallet"; count: number; since: string }[];
}

async function readAttention(db: Db, serviceId: string, now: Date): Promise<HomeAttention> {
  const expiringBefore = new Date(now.getTime() - RESERVATION_AUTO_RELEASE_MS + RESERVATION_WARNING_MS).toISOString();
  const awaitingSince = new Date(now.getTime() - AWAITING_BUYER_AFTER_MS).toISOString();
  const silentSince = new Date(now.getTime() - PROVIDER_SILENT_AFTER_MS).toISOString();
  const failuresSince = new Date(now.getTime() - WEBHOOK_FAILURE_WINDOW_MS).toISOString();
  const at = now.toISOString();
  const result = await db.execute(sql`
    WITH expiring AS (
      SELECT id, authorized_at, amount_minor, currency FROM payments
      WHERE state = 'PRE_AUTHORIZED' AND service_id = ${serviceId} AND authorized_at <= ${expiringBefore}::timestamptz
    ), awaiting AS (
      SELECT id, created_at, amount_minor, currency FROM payments
      WHERE state = 'REQUIRES_ACTION' AND service_id = ${serviceId}
        AND expires_at > ${at}::timestamptz AND created_at <= ${awaitingSince}::timestamptz
    ), failing AS (
      SELECT status, created_at FROM notifications
      WHERE service_id = ${serviceId}
        AND (status = 'abandoned' OR (status = 'pending' AND attempt_count > 0))
        AND created_at > ${failuresSince}::timestamptz
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object(
                'id', id, 'authorizedAt', authorized_at, 'amountMinor', amount_minor, 'currency', currency
              ) ORDER BY authorized_at), '[]')
         FROM (SELECT * FROM expiring ORDER BY authorized_at LIMIT ${LISTED}) listed) AS expiring,
      (SELECT count(*)::int FROM expiring) AS "expiringCount",
      (SELECT coalesce(json_agg(json_build_object(
                'id', id, 'createdAt', created_at, 'amountMinor', amount_minor, 'currency', currency
              ) ORDER BY created_at), '[]')
         FROM (SELECT * FROM awaiting ORDER BY created_at LIMIT ${LISTED}) listed) AS awaiting,
      (SELECT count(*)::int FROM awaiting) AS "awaitingCount",
      (SELECT count(*)::int FROM failing WHERE status = 'abandoned') AS abandoned,
      (SELECT count(*)::int FROM failing WHERE status = 'pending') AS retrying,
      (SELECT min(created_at) FROM failing) AS "webhookOldest",
      (SELECT coalesce(json_agg(json_build_object('provider', provider, 'count', count, 'since', since)
                ORDER BY provider), '[]')
         FROM (SELECT o.provider, count(*)::int AS count, min(o.created_at) AS since
               FROM provider_operations o JOIN payments p ON p.id = o.payment_id
               WHERE o.status IN ('pending', 'unknown') AND o.created_at <= ${silentSince}::timestamptz
                 AND p.service_id = ${serviceId}
               GROUP BY o.provider) silent) AS providers`);
  const [row] = sqlRows<AttentionRow>(result);
  const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);
  const expiring = parsed(row!.expiring);
  const awaiting = parsed(row!.awaiting);
  const providers = parsed(row!.providers);
  return {
    reservationsExpiring: {
      count: row!.expiringCount,
      oldest: expiring.map((entry) => ({
        paymentId: entry.id,
        releaseAt: new Date(new Date(entry.authorizedAt).getTime() + RESERVATION_AUTO_RELEASE_MS),
        amountMinor: Number(entry.amountMinor),
        currency: entry.currency,
      })),
    },
    awaitingBuyer: {
      count: row!.awaitingCount,
      oldest: awaiting.map((entry) => ({
        paymentId: entry.id,
        createdAt: new Date(entry.createdAt),
        amountMinor: Number(entry.amountMinor),
        currency: entry.currency,
      })),
    },
    webhooksFailing: {
      abandoned: row!.abandoned,
      retrying: row!.retrying,
      oldestAt: row!.webhookOldest ? new Date(row!.webhookOldest) : null,
    },
    providersSilent: providers.map((entry) => ({
      provider: entry.provider,
      count: entry.count,
      since: new Date(entry.since),
    })),
  };
}
