// `npm run bench:console -- --database-url <url> [--reseed] [--users 8] [--calls 40]`: the merchant
// console at scale (issue 32). Seeds, once, its own database with 1,000,000 payments over 50
// merchants, one holding 500,000 (scripts/lib/console-bench-database.ts; `--reseed` starts over),
// then times, as the big merchant, each console request (the home among them) at `--users` concurrent users (p50, p99)
// and exports all of its payments (rows/s, peak resident memory above idle). Prints numbers; it
// is not a test. The machine's load average is printed with every run: the numbers mean little
// without it on a shared machine.
//
// Each measured request is a function of a ConsoleDriver. The in-process driver below calls the
// domain functions the pages call; `--http <base url>` GETs the pages and the export route of a
// server (`npm start`) on the same database, signed in as the big merchant's owner
// (scripts/lib/console-bench-http.ts). With --http the export's memory printed is this client's:
// read the server's own resident memory beside it.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../lib/auth/principal";
import { openDatabase, type Db } from "../lib/db/client";
import { services } from "../lib/db/schema";
import { sqlRows } from "../lib/db/sql-rows";
import { searchCustomers } from "../lib/console/customers/search-customers";
import { exportPaymentsCsv } from "../lib/console/payments/export-payments-csv";
import { getPaymentDetail } from "../lib/console/payments/get-payment-detail";
import { listPayments } from "../lib/console/payments/list-payments";
import { getHomeFigures } from "../lib/console/home/get-home-figures";
import { parsePaymentListQuery } from "../lib/console/payments/payment-list-filters";
import { ensureConsoleBenchDatabase } from "./lib/console-bench-database";
import { httpDriver, type ConsoleDriver } from "./lib/console-bench-http";
import { BIG_SERVICE_CODE } from "./lib/seed-payments";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string", default: process.env.BENCH_CONSOLE_DATABASE_URL },
    reseed: { type: "boolean", default: false },
    users: { type: "string", default: "8" },
    calls: { type: "string", default: "40" },
    payments: { type: "string" },
    /** The base URL of a server on this database: time its pages instead of the domain functions. */
    http: { type: "string" },
    /** Only the measurements whose name contains this (e.g. "export", "search"). */
    only: { type: "string" },
  },
});
const url = values["database-url"];
if (!url)
  throw new Error(
    "--database-url (or BENCH_CONSOLE_DATABASE_URL) is required: a database of its own, seeded once and reused",
  );
const users = Number(values.users);
const callsPerUser = Number(values.calls);

function inProcessDriver(db: Db, service: ServiceContext): ConsoleDriver {
  const queryOf = (query: Record<string, string>) => {
    const parsed = parsePaymentListQuery(query);
    if (!parsed.ok) throw new Error(`query refused: ${JSON.stringify(parsed.problems)}`);
    return parsed.query;
  };
  return {
    async paymentsPage(query) {
      const page = await listPayments(db, { serviceId: service.id, query: queryOf(query) });
      return { after: page.after, rows: page.rows.length };
    },
    async paymentDetail(paymentId) {
      await getPaymentDetail(db, { service, paymentId });
    },
    async customerSearch(text) {
      await searchCustomers(db, { serviceId: service.id, query: text });
    },
    async home() {
      await getHomeFigures(db, { serviceId: service.id });
    },
    async exportCsv(query) {
      return exportPaymentsCsv(db, { serviceId: service.id, filters: queryOf(query).filters });
    },
  };
}

function loadAverage(): string {
  return execFileSync("uptime")
    .toString()
    .trim()
    .replace(/^.*load average:\s*/, "load average ");
}

const log = (line: string) => console.log(line);
log(`-- bench:console, ${new Date().toISOString()}, ${loadAverage()}`);
await ensureConsoleBenchDatabase(url, {
  reseed: values.reseed,
  log,
  ...(values.payments ? { payments: Number(values.payments) } : {}),
});
const handle = await openDatabase({ databaseUrl: url, pgliteDir: "", poolSize: users + 2 });
const db = handle.db;
try {
  const [serviceRow] = await db.select().from(services).where(eq(services.code, BIG_SERVICE_CODE));
  const service = serviceRow! as ServiceContext;
  const driver = values.http ? await httpDriver(db, service, values.http) : inProcessDriver(db, service);
  if (values.http) log(`driving the pages of ${values.http}`);
  const samples = await samplesOf(db, service.id);
  log(
    `big merchant: ${samples.total} payments; samples: ${samples.payments.length} payments, ` +
      `${samples.phones.length} phones, ${samples.last4.length} card last 4`,
  );

  // The 100th page's cursor, found once by walking the pages (not timed).
  let after: string | null = null;
  for (let page = 1; page < 100 && !values.only; page += 1)
    after = (await driver.paymentsPage(after ? { after } : {})).after;
  const page100 = after ?? "";

  const day = 86_400_000;
  const windowOf = (i: number) => {
    const end = Date.now() - (i % 300) * day;
    return { createdFrom: new Date(end - 30 * day).toISOString(), createdTo: new Date(end).toISOString() };
  };
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  const measured: { name: string; run: (i: number) => Promise<unknown> }[] = [
    { name: "first page", run: () => driver.paymentsPage({}) },
    {
      name: "filtered page (status + 30-day range)",
      run: (i) => driver.paymentsPage({ status: "FAILED,PARTIALLY_REFUNDED", ...windowOf(i) }),
    },
    { name: "100th page by keyset", run: () => driver.paymentsPage({ after: page100 }) },
    {
      name: "search: phone (+ and without)",
      run: (i) => driver.paymentsPage({ q: i % 2 ? pick(samples.phones, i) : pick(samples.phones, i).slice(1) }),
    },
    { name: "search: actionId", run: (i) => driver.paymentsPage({ q: pick(samples.payments, i).actionId }) },
    { name: "search: paymentId", run: (i) => driver.paymentsPage({ q: pick(samples.payments, i).id }) },
    { name: "search: card last 4", run: (i) => driver.paymentsPage({ q: pick(samples.last4, i) }) },
    { name: "payment detail", run: (i) => driver.paymentDetail(pick(samples.payments, i).id) },
    {
      name: "customer search (name, email, phone)",
      run: (i) => driver.customerSearch(pick(samples.customerQueries, i)),
    },
    // Target: p99 <= 100 ms (issue 42).
    { name: "home at a glance", run: () => driver.home() },
  ];
  log(`${users} concurrent users, ${callsPerUser} calls each (after ${users * 2} warm-up calls):`);
  const only = values.only?.toLowerCase();
  for (const request of measured.filter((m) => !only || m.name.toLowerCase().includes(only))) {
    for (let i = 0; i < users * 2; i += 1) await request.run(i + 10_000);
    const times: number[] = [];
    const cpuBefore = process.cpuUsage();
    await Promise.all(
      Array.from({ length: users }, async (_, user) => {
        for (let call = 0; call < callsPerUser; call += 1) {
          const started = performance.now();
          await request.run(user * callsPerUser + call);
          times.push(performance.now() - started);
        }
      }),
    );
    // This client shares the machine's cores with the server and PostgreSQL: its own CPU per call says how much.
    const cpu = process.cpuUsage(cpuBefore);
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(1);
    const clientCpu = ((cpu.user + cpu.system) / 1000 / times.length).toFixed(1);
    log(
      `  ${request.name.padEnd(40)} p50 ${p(0.5).padStart(7)} ms   p99 ${p(0.99).padStart(7)} ms   ` +
        `(p90 ${p(0.9)}, max ${p(1)}; ${times.length} calls; this client's CPU ${clientCpu} ms a call)`,
    );
  }

  // Export all of the big merchant's payments, read as a client reads a download.
  if (only && !"export csv".includes(only)) {
    log(`-- done, ${loadAverage()}`);
    process.exit(0);
  }
  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const reader = (await driver.exportCsv({})).getReader();
  let bytes = 0;
  let lines = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    for (const byte of read.value) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const rows = lines - 1;
  log(
    `  export CSV: ${rows} rows (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s ` +
      `= ${Math.round(rows / seconds)} rows/s; ` +
      `resident memory idle ${(idle / 1e6).toFixed(0)} MB, peak ${(peak / 1e6).toFixed(0)} MB ` +
      `(+${((peak - idle) / 1e6).toFixed(0)} MB)`,
  );
  log(`-- done, ${loadAverage()}`);
} finally {
  await handle.close();
}

/** Requests spread over many rows, so no single row's cache decides a percentile. */
async function samplesOf(db: Db, serviceId: string) {
  const query = async <T>(statement: ReturnType<typeof sql>) => sqlRows<T>(await db.execute(statement));
  const [count] = await query<{ total: number }>(
    sql`select count(*)::int as total from payments where service_id = ${serviceId}`,
  );
  const payments = await query<{ id: string; actionId: string }>(
    sql`select id, action_id as "actionId" from payments tablesample system (0.2)
        where service_id = ${serviceId} limit 400`,
  );
  const customers = await query<{ phone: string; name: string; email: string | null }>(
    sql`select phone, name, email from customers tablesample system (1) where service_id = ${serviceId} limit 400`,
  );
  const last4 = await query<{ last4: string }>(
    sql`select c.card_last4 as last4 from card_payments c tablesample system (2)
        join payments p on p.id = c.payment_id where p.service_id = ${serviceId} limit 400`,
  );
  // A third each: a name's first two words, an email's first 12 characters, a whole phone.
  const customerQueries = customers.map((c, i) =>
    i % 3 === 0 ? c.name.split(" ").slice(0, 2).join(" ") : i % 3 === 1 && c.email ? c.email.slice(0, 12) : c.phone,
  );
  return {
    total: count?.total ?? 0,
    payments,
    phones: customers.map((c) => c.phone),
    last4: last4.map((row) => row.last4),
    customerQueries,
  };
}
