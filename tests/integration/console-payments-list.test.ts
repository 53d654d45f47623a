import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, onQuery } from "@/lib/db/client";
import { listPayments, PAYMENTS_PAGE_SIZE, type PaymentListPage } from "@/lib/console/payments/list-payments";
import { searchedPaymentIds } from "@/lib/console/payments/payment-search";
import { sqlRows } from "@/lib/db/sql-rows";
import { parsePaymentListQuery, type PaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { consoleMerchant, storedPayment } from "../support/console-payments";

type Query = Record<string, string | string[]>;

function parsed(query: Query): PaymentListQuery {
  const result = parsePaymentListQuery(query);
  if (!result.ok) throw new Error(`query refused: ${JSON.stringify(result.problems)}`);
  return result.query;
}

async function page(serviceId: string, query: Query = {}): Promise<PaymentListPage> {
  return listPayments(await getDb(), { serviceId, query: parsed(query) });
}

async function ids(serviceId: string, query: Query = {}) {
  return (await page(serviceId, query)).rows.map((row) => row.id);
}

const at = (iso: string) => new Date(iso);

describe("payments list: newest first, 25 a page, by keyset", () => {
  it("pages through time ties by id, each payment exactly once, forwards and back, never with OFFSET", async () => {
    const { serviceId } = await consoleMerchant();
    const tie = at("2026-03-01T10:00:00.123456Z");
    const stored = [];
    // 40 share one microsecond; 20 more on either side of it.
    for (let i = 0; i < 40; i += 1) stored.push(await storedPayment(serviceId, { createdAt: tie }));
    for (let i = 0; i < 10; i += 1)
      stored.push(await storedPayment(serviceId, { createdAt: at(`2026-03-01T09:00:0${i}Z`) }));
    for (let i = 0; i < 10; i += 1)
      stored.push(await storedPayment(serviceId, { createdAt: at(`2026-03-01T11:00:0${i}Z`) }));
    const expected = [...stored]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((p) => p.id);
    // The microsecond ties are real ties in the database (a Date would have rounded them alike anyway).
    const statements: string[] = [];
    const stop = onQuery((query) => statements.push(query));
    const pages: PaymentListPage[] = [await page(serviceId)];
    while (pages.at(-1)!.after) pages.push(await page(serviceId, { after: pages.at(-1)!.after! }));
    stop();
    expect(pages.map((p) => p.rows.length)).toEqual([25, 25, 10]);
    expect(pages.flatMap((p) => p.rows.map((row) => row.id))).toEqual(expected);
    expect(pages[0]!.before).toBeNull();
    expect(statements.some((text) => /\boffset\b/i.test(text))).toBe(false);

    // Back from the last page: the same pages, in the same order.
    const back = await page(serviceId, { before: pages[2]!.before! });
    expect(back.rows.map((row) => row.id)).toEqual(pages[1]!.rows.map((row) => row.id));
    const first = await page(serviceId, { before: back.before! });
    expect(first.rows.map((row) => row.id)).toEqual(pages[0]!.rows.map((row) => row.id));
    expect(first.before).toBeNull();
  });

  it("shows created, amount, currency, status code, method (wallet, QR, brand, last 4), phone, actionId", async () => {
    const { serviceId } = await consoleMerchant();
    const card = await storedPayment(serviceId, {
      method: "card",
      card: { brand: "mastercard", last4: "4444" },
      createdAt: at("2026-01-03T00:00:00Z"),
      state: "PARTIALLY_REFUNDED",
      amountMinor: 12345,
      currency: "TND",
    });
    const qr = await storedPayment(serviceId, {
      method: "qr_wallet",
      createdAt: at("2026-01-02T00:00:00Z"),
      state: "PROCESSING",
    });
    const wallet = await storedPayment(serviceId, {
      method: "wallet",
      createdAt: at("2026-01-01T00:00:00Z"),
      state: "CANCELED",
    });
    const rows = (await page(serviceId)).rows;
    expect(rows).toEqual([
      {
        id: card.id,
        createdAt: card.createdAt,
        amountMinor: 12345,
        capturedMinor: 12345,
        refundedMinor: 6172,
        currency: "TND",
        state: "PARTIALLY_REFUNDED",
        statusCode: 16,
        method: { kind: "card", brand: "mastercard", last4: "4444" },
        customerPhone: card.phone,
        customerName: card.customer.name,
        actionId: card.actionId,
      },
      expect.objectContaining({ id: qr.id, statusCode: 1, method: { kind: "qr_wallet" } }),
      expect.objectContaining({ id: wallet.id, statusCode: 10, method: { kind: "wallet" } }),
    ]);
  });

  it("never shows another merchant's payments", async () => {
    const mine = await consoleMerchant();
    const theirs = await consoleMerchant();
    const own = await storedPayment(mine.serviceId);
    const foreign = await storedPayment(theirs.serviceId, { actionId: own.actionId });
    expect(await ids(mine.serviceId)).toEqual([own.id]);
    expect(await ids(mine.serviceId, { q: foreign.id })).toEqual([]);
    expect(await ids(mine.serviceId, { q: own.actionId })).toEqual([own.id]);
  });
});

describe("payments list filters", () => {
  it("filters by statuses, method, currency, creation day (UTC, both ends included), and combined", async () => {
    const { serviceId } = await consoleMerchant();
    const ok = await storedPayment(serviceId, { state: "SUCCEEDED", createdAt: at("2026-02-10T23:59:59Z") });
    const failed = await storedPayment(serviceId, { state: "FAILED", createdAt: at("2026-02-11T00:00:00Z") });
    const held = await storedPayment(serviceId, {
      state: "PRE_AUTHORIZED",
      method: "card",
      createdAt: at("2026-02-12T12:00:00Z"),
      currency: "MAD",
    });
    const qr = await storedPayment(serviceId, {
      state: "SUCCEEDED",
      method: "qr_wallet",
      createdAt: at("2026-02-09T12:00:00Z"),
    });
    expect(await ids(serviceId, { status: ["SUCCEEDED", "FAILED"] })).toEqual([failed.id, ok.id, qr.id]);
    expect(await ids(serviceId, { status: "SUCCEEDED,PRE_AUTHORIZED" })).toEqual([held.id, ok.id, qr.id]);
    expect(await ids(serviceId, { method: "card" })).toEqual([held.id]);
    expect(await ids(serviceId, { method: "qr_wallet" })).toEqual([qr.id]);
    expect(await ids(serviceId, { method: "wallet" })).toEqual([failed.id, ok.id]);
    expect(await ids(serviceId, { currency: "mad" })).toEqual([held.id]);
    expect(await ids(serviceId, { createdFrom: "2026-02-10", createdTo: "2026-02-11" })).toEqual([failed.id, ok.id]);
    expect(await ids(serviceId, { createdFrom: "2026-02-10T23:59:59Z", createdTo: "2026-02-11T00:00:00Z" })).toEqual([
      ok.id,
    ]);
    expect(await ids(serviceId, { status: "SUCCEEDED", method: "wallet", createdFrom: "2026-02-01" })).toEqual([ok.id]);
  });

  it("filters amounts in standard units, converted by each currency's decimals (JPY 0, DZD 2, TND 3)", async () => {
    const { serviceId } = await consoleMerchant();
    const yen = await storedPayment(serviceId, {
      currency: "JPY",
      amountMinor: 12,
      createdAt: at("2026-04-01T00:00:03Z"),
    }); // 12 JPY
    const dinarDz = await storedPayment(serviceId, {
      currency: "DZD",
      amountMinor: 1250,
      createdAt: at("2026-04-01T00:00:02Z"),
    }); // 12.50 DZD
    const dinarTn = await storedPayment(serviceId, {
      currency: "TND",
      amountMinor: 12345,
      createdAt: at("2026-04-01T00:00:01Z"),
    }); // 12.345 TND
    const small = await storedPayment(serviceId, {
      currency: "TND",
      amountMinor: 12000,
      createdAt: at("2026-04-01T00:00:00Z"),
    }); // 12.000 TND
    expect(await ids(serviceId, { amountFrom: "12.3" })).toEqual([dinarDz.id, dinarTn.id]);
    expect(await ids(serviceId, { amountFrom: "12", amountTo: "12" })).toEqual([yen.id, small.id]);
    expect(await ids(serviceId, { amountFrom: "12.345", currency: "TND" })).toEqual([dinarTn.id]);
    // A bound finer than a currency's decimals rounds inward: 12.001 admits no 12 JPY nor 12.00 DZD.
    expect(await ids(serviceId, { amountFrom: "12.001", amountTo: "12.4" })).toEqual([dinarTn.id]);
  });

  it("reports each bad field with its rule, and applies nothing", () => {
    const refused = parsePaymentListQuery({
      status: ["SUCCEEDED", "PAID"],
      method: "cash",
      currency: "XYZ",
      amountFrom: "1.2345",
      amountTo: "abc",
      createdFrom: "yesterday",
      after: "not-a-cursor",
    });
    expect(refused).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        { field: "status", message: "is not a payment status" },
        { field: "method", message: "must be wallet, qr_wallet, card, satim, clictopay, cmi or chargily" },
        { field: "currency", message: "is not a currency the gateway accepts" },
        { field: "amountFrom", message: "must have at most 3 decimal places for TND" },
        { field: "amountTo", message: "must be a number" },
        { field: "createdFrom", message: "must be a date (YYYY-MM-DD) or an ISO 8601 time" },
        { field: "after", message: "is not a page of this list" },
      ]),
    });
    // With a currency chosen, its own decimals are the rule.
    expect(parsePaymentListQuery({ currency: "DZD", amountFrom: "1.234" })).toEqual({
      ok: false,
      problems: [{ field: "amountFrom", message: "must have at most 2 decimal places for DZD" }],
    });
  });
});

describe("payments list search: one box, four identifiers", () => {
  it("finds by paymentId, actionId, customer's phone with or without + (spaces ignored), card last 4", async () => {
    const { serviceId } = await consoleMerchant();
    const phone = "+213555123456";
    const first = await storedPayment(serviceId, { phone, createdAt: at("2026-05-01T00:00:00Z") });
    const second = await storedPayment(serviceId, { phone, createdAt: at("2026-05-02T00:00:00Z") });
    const card = await storedPayment(serviceId, {
      method: "card",
      card: { brand: "visa", last4: "9876" },
      actionId: "A-77",
    });
    await storedPayment(serviceId, { method: "card", card: { brand: "visa", last4: "1111" } });

    expect(await ids(serviceId, { q: first.id })).toEqual([first.id]);
    expect(await ids(serviceId, { q: first.id.toUpperCase() })).toEqual([first.id]);
    expect(await ids(serviceId, { q: "A-77" })).toEqual([card.id]);
    expect(await ids(serviceId, { q: phone })).toEqual([second.id, first.id]);
    expect(await ids(serviceId, { q: "213555123456" })).toEqual([second.id, first.id]);
    expect(await ids(serviceId, { q: " +213 555 12 34 56 " })).toEqual([second.id, first.id]);
    expect(await ids(serviceId, { q: "9876" })).toEqual([card.id]);
    expect(await ids(serviceId, { q: "0000" })).toEqual([]);
    // A search keeps the filters.
    expect(await ids(serviceId, { q: phone, createdFrom: "2026-05-02" })).toEqual([second.id]);
  });

  it("finds by card last 4 only the merchant's own cards, though another merchant's card ends the same", async () => {
    const mine = await consoleMerchant();
    const theirs = await consoleMerchant();
    const own = await storedPayment(mine.serviceId, { method: "card", card: { brand: "visa", last4: "4242" } });
    const foreign = await storedPayment(theirs.serviceId, {
      method: "card",
      card: { brand: "mastercard", last4: "4242" },
    });
    expect(await ids(mine.serviceId, { q: "4242" })).toEqual([own.id]);
    expect(await ids(theirs.serviceId, { q: "4242" })).toEqual([foreign.id]);
    // The search's own ids are scoped too, not only by the list's condition on the rows.
    const db = await getDb();
    const found = sqlRows<{ id: string }>(
      await db.execute(sql`select * from (${searchedPaymentIds(mine.serviceId, "4242")}) found(id)`),
    );
    expect(found.map((row) => row.id)).toEqual([own.id]);
  });

  it("pages a search's results by keyset too", async () => {
    const { serviceId } = await consoleMerchant();
    const phone = "+212600000001";
    for (let i = 0; i < PAYMENTS_PAGE_SIZE + 3; i += 1)
      await storedPayment(serviceId, { phone, createdAt: at("2026-06-01T00:00:00Z") });
    const first = await page(serviceId, { q: phone });
    const second = await page(serviceId, { q: phone, after: first.after! });
    expect([first.rows.length, second.rows.length, second.after]).toEqual([25, 3, null]);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.id)).size).toBe(28);
  });
});
