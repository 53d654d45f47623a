import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { customersPage } from "@/app/[locale]/console/_pages/customers-page";
import { paymentsPage } from "@/app/[locale]/console/_pages/payments-page";
import { customerSearchQueries, searchCustomers } from "@/lib/console/customers/search-customers";
import { listPayments, paymentPageQuery } from "@/lib/console/payments/list-payments";
import { parsePaymentListQuery, type PaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { getDb } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/sql-rows";
import { createConsoleUser } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { storedPayment } from "../support/console-payments";
import { createMerchant } from "../support/factories";
import { serviceIdOf } from "../support/payments";

/** Every form support staff may type the buyer's +213 555 12 34 56 in. */
const TYPED = [
  "+213555123456",
  "+213 555 12 34 56",
  "213555123456",
  "00213 555 12 34 56",
  "0555 12 34 56",
  "0555123456",
  "0555-12-34-56",
  "555 12 34 56",
  "٠٥٥٥ ١٢ ٣٤ ٥٦",
  "۰۵۵۵۱۲۳۴۵۶",
  "+213 (0)555 12 34 56",
];

let serviceId: string;
let owner: { id: string };
let payments: { id: string }[];
const COUNTRIES = ["DZA"];

beforeAll(async () => {
  const merchant = await createMerchant({ countries: COUNTRIES });
  serviceId = await serviceIdOf(merchant);
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
  const older = await storedPayment(serviceId, {
    phone: "+213555123456",
    name: "Amina Benali",
    createdAt: new Date("2026-05-01T00:00:00Z"),
  });
  const newer = await storedPayment(serviceId, {
    phone: "+213555123456",
    name: "Amina Benali",
    createdAt: new Date("2026-05-02T00:00:00Z"),
  });
  // A neighbour's number, one digit off, and a Moroccan number with the same national digits (the merchant
  // sells in Algeria only).
  await storedPayment(serviceId, { phone: "+213555123457", name: "Someone Else" });
  await storedPayment(serviceId, { phone: "+212555123456", name: "Not In Algeria" });
  payments = [newer, older];
});

function query(q: string): PaymentListQuery {
  const parsed = parsePaymentListQuery({ q }, { countries: COUNTRIES });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.query;
}

describe("find the buyer by the number the buyer gives", () => {
  it.each(TYPED)("payments: %s finds the buyer's payments and no other", async (typed) => {
    const page = await listPayments(await getDb(), { serviceId, query: query(typed) });
    expect(page.rows.map((row) => row.id)).toEqual(payments.map((payment) => payment.id));
  });

  it.each(TYPED)("customers: %s finds the buyer and no other", async (typed) => {
    const found = await searchCustomers(await getDb(), { serviceId, query: typed, countries: COUNTRIES });
    expect(found.map((customer) => customer.name)).toEqual(["Amina Benali"]);
  });

  it("on the pages, in Arabic, in the merchant's countries; the search box reads a phone left to right", async () => {
    const paymentsHtml = await renderConsolePage(paymentsPage, {
      userId: owner.id,
      locale: "ar",
      query: { q: "٠٥٥٥ ١٢ ٣٤ ٥٦" },
    });
    for (const payment of payments) expect(paymentsHtml).toContain(`/ar/console/payments/${payment.id}"`);
    expect(paymentsHtml).toMatch(/<input[^>]*id="q"[^>]*dir="auto"|<input[^>]*dir="auto"[^>]*id="q"/);
    const customersHtml = await renderConsolePage(customersPage, {
      userId: owner.id,
      locale: "ar",
      query: { q: "0555 12 34 56" },
    });
    expect(textOf(customersHtml)).toContain("Amina Benali");
    expect(textOf(customersHtml)).not.toContain("Not In Algeria");
    expect(customersHtml).toMatch(/<input[^>]*id="q"[^>]*dir="auto"|<input[^>]*dir="auto"[^>]*id="q"/);
  });

  it("looks the phone up in the customers' unique (service, phone) index, never by scanning", async () => {
    const db = await getDb();
    const plans = await db.transaction(async (tx) => {
      // Small tables would be scanned anyway: forbid it, so only a condition the index can serve gives an index plan.
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = async (statement: { sql: string; params: unknown[] }) =>
        sqlRows<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain (costs off) ${inlined(statement)}`)))
          .map((row) => row["QUERY PLAN"])
          .join("\n");
      return [
        await explain(paymentPageQuery(db, { serviceId, query: query("0555 12 34 56") }).toSQL()),
        await explain(
          customerSearchQueries(db, { serviceId, query: "0555 12 34 56", countries: COUNTRIES })[0]!.toSQL(),
        ),
      ];
    });
    for (const plan of plans) {
      expect(plan).toContain("customers_service_phone_unique");
      expect(plan).not.toMatch(/Seq Scan on (customers|payments)\b/);
    }
  });
});

/** A statement with its parameters written in as literals, for EXPLAIN. */
function inlined(statement: { sql: string; params: unknown[] }): string {
  return statement.sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = statement.params[Number(index) - 1];
    return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
