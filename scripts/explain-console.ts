// `npx tsx scripts/explain-console.ts --database-url <url>`: the EXPLAIN (ANALYZE, BUFFERS) of
// every statement the console's pages, searches and export run, on the benchmark's database
// (seed it with `npm run bench:console` first), as the big merchant. Shows which index each
// one uses: a phone search must not scan payments, a last-4 search must not scan cards.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../lib/db/client";
import { services } from "../lib/db/schema";
import { sqlRows } from "../lib/db/sql-rows";
import { customerSearchQueries } from "../lib/console/customers/search-customers";
import { exportQuery } from "../lib/console/payments/export-payments-csv";
import { listPayments, paymentPageQuery } from "../lib/console/payments/list-payments";
import { parsePaymentListQuery } from "../lib/console/payments/payment-list-filters";
import { BIG_SERVICE_CODE } from "./lib/seed-payments";

const { values } = parseArgs({
  options: { "database-url": { type: "string", default: process.env.BENCH_CONSOLE_DATABASE_URL } },
});
const url = values["database-url"];
if (!url) throw new Error("--database-url is required");
const handle = await openDatabase({ databaseUrl: url, pgliteDir: "" });
const raw = postgres(url, { max: 1, onnotice: () => {} });
try {
  const db = handle.db;
  const [service] = await db.select().from(services).where(eq(services.code, BIG_SERVICE_CODE));
  const serviceId = service!.id;
  const [sample] = sqlRows<{ id: string; action_id: string; phone: string; last4: string }>(
    await db.execute(sql`select p.id, p.action_id, c.phone, cp.card_last4 as last4
                         from payments p join customers c on c.id = p.customer_id
                         join card_payments cp on cp.payment_id = p.id where p.service_id = ${serviceId} limit 1`),
  );
  const query = (q: Record<string, string>) => {
    const parsed = parsePaymentListQuery(q, { countries: service!.countries });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return parsed.query;
  };
  // +213555123456 -> "0555 123 456" (the seed's phones are Algerian, Moroccan or Tunisian: a trunk 0 for the
  // first two).
  const nationalForm = (phone: string) => `0${phone.slice(4, 7)} ${phone.slice(7, 10)} ${phone.slice(10)}`;
  let after: string | null = null;
  for (let page = 1; page < 100; page += 1)
    after = (await listPayments(db, { serviceId, query: query(after ? { after } : {}) })).after;
  const end = new Date();
  const from = new Date(end.getTime() - 30 * 86_400_000);
  const range = { createdFrom: from.toISOString(), createdTo: end.toISOString() };
  const page = (q: Record<string, string>) => paymentPageQuery(db, { serviceId, query: query(q) }).toSQL();
  const statements: [string, { sql: string; params: unknown[] }][] = [
    ["first page", page({})],
    ["filtered page: status + 30 days", page({ status: "FAILED,PARTIALLY_REFUNDED", ...range })],
    [
      "filtered page: card, TND, amount 10 to 20 (matches nothing)",
      page({ method: "card", currency: "TND", amountFrom: "10", amountTo: "20" }),
    ],
    ["filtered page: one status (PRE_AUTHORIZED)", page({ status: "PRE_AUTHORIZED" })],
    ["filtered page: a rare currency (MAD)", page({ currency: "MAD" })],
    ["filtered page: an exact amount (23.45)", page({ amountFrom: "23.45", amountTo: "23.45" })],
    ["filtered page: QR wallet, REFUNDED (matches nothing)", page({ method: "qr_wallet", status: "REFUNDED" })],
    [
      "filtered page: wallet, SUCCEEDED + CANCELED, 90 days",
      page({
        method: "wallet",
        status: "SUCCEEDED,CANCELED",
        createdFrom: new Date(end.getTime() - 90 * 86_400_000).toISOString(),
      }),
    ],
    ["100th page by keyset", page({ after: after! })],
    ["search: phone", page({ q: sample!.phone })],
    // As support types what the buyer says: the national form with its trunk 0 (lib/geo/typed-phone.ts).
    ["search: phone, national form", page({ q: nationalForm(sample!.phone) })],
    ["search: actionId", page({ q: sample!.action_id })],
    ["search: paymentId", page({ q: sample!.id })],
    ["search: card last 4", page({ q: sample!.last4 })],
    [
      "detail: timeline",
      { sql: "select * from payment_state_changes where payment_id = $1 order by at, id", params: [sample!.id] },
    ],
    [
      "detail: events",
      {
        sql:
          "select * from notifications where service_id = $1 and payment_id = $2 " +
          "order by created_at desc, id desc limit 101",
        params: [serviceId, sample!.id],
      },
    ],
    ...customerSearchQueries(db, { serviceId, query: "Amina Benali 12" })
      .slice(0, 1)
      .map((q) => ["customer search: name", q.toSQL()] as [string, { sql: string; params: unknown[] }]),
    ...customerSearchQueries(db, { serviceId, query: "customer1234@" })
      .slice(1, 2)
      .map((q) => ["customer search: email", q.toSQL()] as [string, { sql: string; params: unknown[] }]),
    ...customerSearchQueries(db, { serviceId, query: sample!.phone })
      .slice(0, 1)
      .map((q) => ["customer search: phone", q.toSQL()] as [string, { sql: string; params: unknown[] }]),
    ...customerSearchQueries(db, { serviceId, query: nationalForm(sample!.phone), countries: service!.countries })
      .slice(0, 1)
      .map((q) => ["customer search: phone, national form", q.toSQL()] as [string, { sql: string; params: unknown[] }]),
    ["export (all 500,000)", exportQuery(db, { serviceId, filters: query({}).filters }).toSQL()],
  ];
  for (const [name, statement] of statements) {
    const plan = await raw.unsafe(
      `explain (analyze, buffers, costs off) ${statement.sql}`,
      statement.params as never[],
    );
    console.log(`-- ${name}`);
    for (const row of plan) console.log(`   ${String(row["QUERY PLAN"])}`);
  }
} finally {
  await raw.end();
  await handle.close();
}
