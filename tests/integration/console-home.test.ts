import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HomeSections } from "@/app/[locale]/console/_pages/home-page";
import { getHomeFigures, SUCCEEDED_STATES, type HomeFigures } from "@/lib/console/home/get-home-figures";
import { homePeriods } from "@/lib/console/home/home-periods";
import { getDb } from "@/lib/db/client";
import {
  customers,
  notifications,
  paymentCaptures,
  paymentRefunds,
  payments,
  providerOperations,
  services,
} from "@/lib/db/schema";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import { applyTransition } from "@/lib/payments/core/apply-transition";
import { SYSTEM_CAUSE } from "@/lib/payments/core/state-change-cause";
import { notificationOf } from "@/lib/payments/core/notify-payment-change";
import { TRANSITIONS, type PaymentEvent } from "@/lib/payments/core/payment-state";
import { fixedClock, serviceIdOf } from "../support/console";
import { createMerchant } from "../support/factories";

// A Thursday: the week began on Monday 12 May, the month on 1 May, the chart on 16 April. Long
// enough ago that the suite's ledger audit expects no events of these rows (30 days' retention).
const NOW = new Date("2025-05-15T10:00:00Z");
const clock = fixedClock(NOW);

type State = (typeof payments.$inferInsert)["state"];
interface Row {
  at: string;
  state: State;
  currency?: string;
  amount: number;
  captured?: number;
  refunded?: number;
  method?: "wallet" | "qr" | "card";
  reservation?: boolean;
  authorizedAt?: string;
  expiresAt?: string;
}

let serviceId: string;
let figures: HomeFigures;
let sequence = 0;

async function insertPayments(service: string, rows: Row[]): Promise<string[]> {
  const db = await getDb();
  // The merchant's clock set to NOW, so the suite's sweeps (expiry, the 7-day release) leave these
  // rows as the figures read them: its reservations have no hold at the wallet to release.
  await db
    .update(services)
    .set({ clockOffsetSeconds: Math.round((NOW.getTime() - Date.now()) / 1000) })
    .where(eq(services.id, service));
  const [customer] = await db
    .insert(customers)
    .values({
      serviceId: service,
      name: "Home Buyer",
      phone: `+2135${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
    })
    .returning({ id: customers.id });
  const inserted = await db
    .insert(payments)
    .values(
      rows.map((row) => {
        sequence += 1;
        const created = new Date(row.at);
        return {
          serviceId: service,
          customerId: customer!.id,
          actionId: `home-${sequence}`,
          requestFingerprint: "fp",
          state: row.state,
          amountMinor: row.amount,
          currency: row.currency ?? "DZD",
          country: row.currency === "TND" ? "TUN" : "DZA",
          captureMethod: row.reservation ? ("RESERVATION" as const) : ("DIRECT" as const),
          transactionType: row.method === "qr" ? ("QR_CODE" as const) : null,
          paymentMethodCode: row.method === "card" ? "CARD_PROVIDER" : row.method ? "WALLET_V2" : null,
          capturedMinor: row.captured ?? 0,
          refundedMinor: row.refunded ?? 0,
          createdAt: created,
          updatedAt: created,
          expiresAt: row.expiresAt ? new Date(row.expiresAt) : new Date(created.getTime() + 30 * 60_000),
          authorizedAt: row.authorizedAt ? new Date(row.authorizedAt) : null,
        };
      }),
    )
    .returning({
      id: payments.id,
      amountMinor: payments.amountMinor,
      capturedMinor: payments.capturedMinor,
      refundedMinor: payments.refundedMinor,
      createdAt: payments.createdAt,
      captureMethod: payments.captureMethod,
    });
  // The capture and refund rows the sums imply (the suite's ledger audit checks them).
  const captured = inserted.filter((row) => row.capturedMinor > 0);
  if (captured.length > 0) {
    await db.insert(paymentCaptures).values(
      captured.map((row) => ({
        paymentId: row.id,
        amountMinor: row.capturedMinor,
        releasedMinor: row.captureMethod === "RESERVATION" ? row.amountMinor - row.capturedMinor : 0,
        createdAt: row.createdAt,
      })),
    );
  }
  const refunded = inserted.filter((row) => row.refundedMinor > 0);
  if (refunded.length > 0)
    await db.insert(paymentRefunds).values(
      refunded.map((row) => ({
        paymentId: row.id,
        amountMinor: row.refundedMinor,
        description: "refund",
        createdAt: row.createdAt,
      })),
    );
  return inserted.map((row) => row.id);
}

beforeAll(async () => {
  serviceId = await serviceIdOf(await createMerchant());
  const ids = await insertPayments(serviceId, [
    // Today.
    { at: "2025-05-15T08:00:00Z", state: "SUCCEEDED", amount: 10_000, captured: 10_000, method: "wallet" },
    {
      at: "2025-05-15T09:00:00Z",
      state: "PARTIALLY_REFUNDED",
      amount: 5_000,
      captured: 5_000,
      refunded: 1_000,
      method: "wallet",
    },
    { at: "2025-05-15T09:30:00Z", state: "FAILED", amount: 7_000, method: "wallet" },
    // A reservation captured in part: the money that moved is what was captured.
    {
      at: "2025-05-15T00:00:00Z",
      state: "SUCCEEDED",
      amount: 8_000,
      captured: 6_000,
      method: "wallet",
      reservation: true,
      authorizedAt: "2025-05-15T00:01:00Z",
    },
    {
      at: "2025-05-15T07:00:00Z",
      state: "SUCCEEDED",
      currency: "TND",
      amount: 12_345,
      captured: 12_345,
      method: "card",
    },
    // Held today: not money in yet, and far from its release.
    {
      at: "2025-05-15T06:00:00Z",
      state: "PRE_AUTHORIZED",
      amount: 9_000,
      method: "wallet",
      reservation: true,
      authorizedAt: "2025-05-15T06:01:00Z",
    },
    // Waiting for its buyer 20 minutes, and another only 5.
    {
      at: "2025-05-15T09:40:00Z",
      state: "REQUIRES_ACTION",
      amount: 4_400,
      method: "card",
      expiresAt: "2025-05-15T10:10:00Z",
    },
    {
      at: "2025-05-15T09:55:00Z",
      state: "REQUIRES_ACTION",
      amount: 5_500,
      method: "card",
      expiresAt: "2025-05-15T10:25:00Z",
    },
    // Yesterday, one second before midnight UTC.
    { at: "2025-05-14T23:59:59Z", state: "FAILED", currency: "TND", amount: 1_000, method: "card" },
    // This week (Monday) and this month.
    { at: "2025-05-12T12:00:00Z", state: "SUCCEEDED", amount: 3_000, captured: 3_000, method: "qr" },
    { at: "2025-05-03T10:00:00Z", state: "REFUNDED", amount: 2_000, captured: 2_000, refunded: 2_000, method: "card" },
    // Reserved a week ago less two hours: released at noon today.
    {
      at: "2025-05-08T11:59:00Z",
      state: "PRE_AUTHORIZED",
      amount: 7_700,
      method: "wallet",
      reservation: true,
      authorizedAt: "2025-05-08T12:00:00Z",
    },
    // In the chart's 30 days, not this month; then before the chart.
    { at: "2025-04-20T10:00:00Z", state: "SUCCEEDED", amount: 4_000, captured: 4_000, method: "wallet" },
    { at: "2025-04-10T10:00:00Z", state: "SUCCEEDED", amount: 99_999, captured: 99_999, method: "wallet" },
    // Created, never sent to a method: counts nowhere.
    { at: "2025-05-15T09:58:00Z", state: "CREATED", amount: 1_234 },
  ]);
  // Another merchant's payment today: not this merchant's figures.
  await insertPayments(await serviceIdOf(await createMerchant()), [
    { at: "2025-05-15T08:30:00Z", state: "SUCCEEDED", amount: 50_000, captured: 50_000, method: "wallet" },
  ]);

  const db = await getDb();
  const notification = (
    id: string,
    status: "pending" | "delivered" | "abandoned",
    attemptCount: number,
    at: string,
  ) => ({
    id: `msg_home${id}${sequence}`,
    serviceId,
    paymentId: ids[0]!,
    type: "payment.succeeded",
    payload: {},
    status,
    attemptCount,
    createdAt: new Date(at),
    nextAttemptAt: new Date(at),
    deliveredAt: status === "delivered" ? new Date(at) : null,
  });
  await db
    .insert(notifications)
    .values([
      notification("a", "abandoned", 8, "2025-05-14T08:00:00Z"),
      notification("b", "pending", 2, "2025-05-15T09:00:00Z"),
      notification("d", "pending", 0, "2025-05-15T09:59:00Z"),
      notification("e", "abandoned", 8, "2025-04-01T08:00:00Z"),
    ]);
  const operation = (id: string, status: "pending" | "unknown" | "succeeded", at: string, paymentId: string) => ({
    id: `op_home_${id}_${sequence}`,
    paymentId,
    provider: "wallet" as const,
    kind: "refund",
    status,
    nextAttemptAt: new Date(at),
    createdAt: new Date(at),
  });
  await db
    .insert(providerOperations)
    .values([
      operation("a", "unknown", "2025-05-15T09:00:00Z", ids[1]!),
      operation("b", "pending", "2025-05-15T09:20:00Z", ids[1]!),
      operation("c", "pending", "2025-05-15T09:59:30Z", ids[1]!),
      operation("d", "succeeded", "2025-05-15T08:00:00Z", ids[1]!),
    ]);
  figures = await getHomeFigures(db, { serviceId, clock });
});

// The operations stood for a silent provider; settled afterwards, as reconciliation would, for the suite's
// ledger audit.
afterAll(async () => {
  await (
    await getDb()
  )
    .update(providerOperations)
    .set({ status: "failed", settledAt: new Date() })
    .where(like(providerOperations.id, "op_home_%"));
});

describe("the console home's figures (issue 42)", () => {
  it("succeeded count and captured money today, this week and this month, per currency, and the refunds", () => {
    const dzd = figures.currencies.find((entry) => entry.currency === "DZD")!;
    expect(dzd.today).toEqual({ succeededCount: 3, succeededMinor: 21_000, refundedCount: 1, refundedMinor: 1_000 });
    expect(dzd.week).toEqual({ succeededCount: 4, succeededMinor: 24_000, refundedCount: 1, refundedMinor: 1_000 });
    expect(dzd.month).toEqual({ succeededCount: 5, succeededMinor: 26_000, refundedCount: 2, refundedMinor: 3_000 });
    const tnd = figures.currencies.find((entry) => entry.currency === "TND")!;
    expect(tnd.today).toEqual({ succeededCount: 1, succeededMinor: 12_345, refundedCount: 0, refundedMinor: 0 });
    expect(tnd.month).toEqual(tnd.today);
    expect(figures.currencies.map((entry) => entry.currency)).toEqual(["DZD", "TND"]);
  });

  it("the chart's 30 days: each day's succeeded money and count, nothing before the chart", () => {
    const dzd = figures.currencies.find((entry) => entry.currency === "DZD")!;
    expect(dzd.days).toHaveLength(30);
    expect(dzd.days[0]!.day).toBe("2025-04-16");
    expect(dzd.days.at(-1)!.day).toBe("2025-05-15");
    const nonZero = dzd.days.filter((day) => day.succeededCount > 0);
    expect(nonZero).toEqual([
      { day: "2025-04-20", succeededCount: 1, succeededMinor: 4_000 },
      { day: "2025-05-03", succeededCount: 1, succeededMinor: 2_000 },
      { day: "2025-05-12", succeededCount: 1, succeededMinor: 3_000 },
      { day: "2025-05-15", succeededCount: 3, succeededMinor: 21_000 },
    ]);
  });

  it("success per method over 30 days: succeeded or reserved against failed", () => {
    expect(figures.methods).toEqual([
      { method: "wallet", succeeded: 6, failed: 1, rate: 6 / 7 },
      { method: "qr_wallet", succeeded: 1, failed: 0, rate: 1 },
      { method: "card", succeeded: 2, failed: 1, rate: 2 / 3 },
    ]);
  });

  it("what needs someone: reservations released in a day, waiting buyers, failing webhooks, silent providers", () => {
    const { reservationsExpiring, awaitingBuyer, webhooksFailing, providersSilent } = figures.attention;
    expect(reservationsExpiring.count).toBe(1);
    expect(reservationsExpiring.oldest).toEqual([
      expect.objectContaining({ amountMinor: 7_700, currency: "DZD", releaseAt: new Date("2025-05-15T12:00:00Z") }),
    ]);
    expect(awaitingBuyer.count).toBe(1);
    expect(awaitingBuyer.oldest).toEqual([
      expect.objectContaining({ amountMinor: 4_400, createdAt: new Date("2025-05-15T09:40:00Z") }),
    ]);
    expect(webhooksFailing).toEqual({ abandoned: 1, retrying: 1, oldestAt: new Date("2025-05-14T08:00:00Z") });
    expect(providersSilent).toEqual([{ provider: "wallet", count: 2, since: new Date("2025-05-15T09:00:00Z") }]);
  });

  it("shows those numbers, amounts in each currency's decimals, and the chart as a table for screen readers", () => {
    const html = renderToStaticMarkup(createElement(HomeSections, { figures, locale: "en" }));
    const amount = (minor: number, currency = "DZD") => formatMinorAmount({ minor, currency, locale: "en" });
    for (const text of [
      amount(21_000),
      amount(24_000),
      amount(26_000),
      amount(12_345, "TND"),
      "3 payments",
      "4 payments",
      "5 payments",
      "1 payment",
    ]) {
      expect(html).toContain(text);
    }
    expect(amount(12_345, "TND")).toContain("12.345");
    expect(html).toContain(`Refunded: ${amount(3_000)} (2 payments)`);
    expect(html).toContain("85.7% (6 of 7)");
    expect(html).toContain("66.7% (2 of 3)");
    expect(html).toContain("1 reservation is released within a day unless captured");
    expect(html).toContain("1 payment has waited more than 10 minutes for the buyer");
    expect(html).toContain("The wallet operator has not answered 2 operations since");
    expect(html).toContain("Webhooks failing in the last 7 days: 1 given up, 1 being retried.");
    // The picture is hidden from screen readers; the table says it.
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html).toContain("<caption>Succeeded per day over the last 30 days, DZD</caption>");
    expect(html).toContain(`<th scope="row">May 15</th><td>${amount(21_000)}</td><td>3</td>`);
    expect(html).not.toContain(amount(99_999));
    expect(html).not.toContain(amount(50_000));

    const arabic = renderToStaticMarkup(createElement(HomeSections, { figures, locale: "ar" }));
    expect(arabic).toContain(formatMinorAmount({ minor: 21_000, currency: "DZD", locale: "ar" }));
    expect(arabic).toContain("المقبوضات");
  });

  it("a merchant with nothing yet: nothing needs it, and no figures", async () => {
    const quiet = await getHomeFigures(await getDb(), { serviceId: await serviceIdOf(await createMerchant()), clock });
    expect(quiet.currencies).toEqual([]);
    expect(quiet.methods).toEqual([]);
    const html = renderToStaticMarkup(createElement(HomeSections, { figures: quiet, locale: "fr" }));
    expect(html).toContain("Rien ne demande votre attention pour l’instant.");
    expect(html).toContain("Aucun paiement ces 30 derniers jours.");
  });
});

describe("where a merchant's days begin (one function, a time zone optional)", () => {
  it("in UTC by default: today, Monday, the 1st", () => {
    const periods = homePeriods(NOW);
    expect(periods.today).toEqual(new Date("2025-05-15T00:00:00Z"));
    expect(periods.week).toEqual(new Date("2025-05-12T00:00:00Z"));
    expect(periods.month).toEqual(new Date("2025-05-01T00:00:00Z"));
    expect(periods.chartFrom).toEqual(new Date("2025-04-16T00:00:00Z"));
  });

  it("in a zone: Algiers, an hour ahead, began its day at 23:00 UTC; a month may begin the evening before", () => {
    const periods = homePeriods(new Date("2025-05-31T23:30:00Z"), "Africa/Algiers");
    expect(periods.dates.today).toBe("2025-06-01");
    expect(periods.today).toEqual(new Date("2025-05-31T23:00:00Z"));
    expect(periods.month).toEqual(new Date("2025-05-31T23:00:00Z"));
    expect(periods.chartDays.at(-1)).toBe("2025-06-01");
  });

  it("across a daylight-saving change (Europe/Paris, last Sunday of March): midnight keeps its own offset", () => {
    const periods = homePeriods(new Date("2031-03-31T10:00:00Z"), "Europe/Paris");
    expect(periods.today).toEqual(new Date("2031-03-30T22:00:00Z"));
    expect(periods.week).toEqual(new Date("2031-03-30T22:00:00Z"));
    expect(periods.month).toEqual(new Date("2031-02-28T23:00:00Z"));
  });

  it("the figures follow the zone: a payment at 23:30 UTC is tomorrow in Algiers", async () => {
    const service = await serviceIdOf(await createMerchant());
    await insertPayments(service, [
      { at: "2025-05-14T23:30:00Z", state: "SUCCEEDED", amount: 1_500, captured: 1_500, method: "wallet" },
    ]);
    const utc = await getHomeFigures(await getDb(), { serviceId: service, clock });
    const algiers = await getHomeFigures(await getDb(), { serviceId: service, clock, timeZone: "Africa/Algiers" });
    expect(utc.currencies[0]!.today.succeededCount).toBe(0);
    expect(algiers.currencies[0]!.today.succeededCount).toBe(1);
    expect(algiers.currencies[0]!.days.at(-1)).toEqual({ day: "2025-05-15", succeededCount: 1, succeededMinor: 1_500 });
  });
});

describe("the home opened again (the days before today are kept by each server process)", () => {
  it("every change a figure can see writes a notification, the rule that lets a server keep past days", () => {
    const counted: readonly string[] = [...SUCCEEDED_STATES, "PRE_AUTHORIZED", "FAILED"];
    for (const [event, rule] of Object.entries(TRANSITIONS)) {
      if (notificationOf(event as PaymentEvent) !== null) continue;
      expect(counted).not.toContain(rule.to);
      for (const from of rule.from) expect(counted).not.toContain(from);
    }
  });

  it("a refund of an earlier day's payment, made after the owner opened the home, shows next time", async () => {
    const service = await serviceIdOf(await createMerchant());
    const [id] = await insertPayments(service, [
      { at: "2025-05-12T12:00:00Z", state: "SUCCEEDED", amount: 3_000, captured: 3_000, method: "wallet" },
    ]);
    const db = await getDb();
    const before = await getHomeFigures(db, { serviceId: service, clock });
    expect(before.currencies[0]!.week).toEqual({
      succeededCount: 1,
      succeededMinor: 3_000,
      refundedCount: 0,
      refundedMinor: 0,
    });

    // As refundPayment does: the payment locked, its refund row, the transition and its notification in one
    // transaction.
    await db.transaction(async (tx) => {
      const [payment] = await tx.select().from(payments).where(eq(payments.id, id!)).for("update");
      await tx.insert(paymentRefunds).values({ paymentId: id!, amountMinor: 1_000, description: "refund" });
      await applyTransition(tx, {
        payment: payment!,
        event: "refund_partial",
        cause: SYSTEM_CAUSE,
        changes: { refundedMinor: 1_000 },
        now: NOW,
      });
    });

    const after = await getHomeFigures(db, { serviceId: service, clock });
    expect(after.currencies[0]!.week).toEqual({
      succeededCount: 1,
      succeededMinor: 3_000,
      refundedCount: 1,
      refundedMinor: 1_000,
    });
    expect(after.currencies[0]!.month).toEqual(after.currencies[0]!.week);
  });

  it("a payment made today shows at once, beside the days already read", async () => {
    const service = await serviceIdOf(await createMerchant());
    await insertPayments(service, [
      { at: "2025-05-13T12:00:00Z", state: "SUCCEEDED", amount: 2_000, captured: 2_000, method: "wallet" },
    ]);
    const db = await getDb();
    await getHomeFigures(db, { serviceId: service, clock });
    await insertPayments(service, [
      { at: "2025-05-15T09:00:00Z", state: "SUCCEEDED", amount: 500, captured: 500, method: "wallet" },
    ]);
    const figures = await getHomeFigures(db, { serviceId: service, clock });
    expect(figures.currencies[0]!.today).toEqual({
      succeededCount: 1,
      succeededMinor: 500,
      refundedCount: 0,
      refundedMinor: 0,
    });
    expect(figures.currencies[0]!.week).toEqual({
      succeededCount: 2,
      succeededMinor: 2_500,
      refundedCount: 0,
      refundedMinor: 0,
    });
  });
});
