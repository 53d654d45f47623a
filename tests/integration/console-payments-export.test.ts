import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sqlRows } from "@/lib/db/sql-rows";
import { getDb, type Db } from "@/lib/db/client";
import { exportPaymentsCsv, exportSeparatorOf, EXPORT_HEADER } from "@/lib/console/payments/export-payments-csv";
import {
  NO_FILTERS,
  parsePaymentListQuery,
  type PaymentListFilters,
} from "@/lib/console/payments/payment-list-filters";
import { consoleMerchant, storedPayment } from "../support/console-payments";

async function exported(db: Db, serviceId: string, filters: PaymentListFilters = NO_FILTERS): Promise<string> {
  return new Response(exportPaymentsCsv(db, { serviceId, filters })).text();
}

function filtersOf(query: Record<string, string>): PaymentListFilters {
  const parsed = parsePaymentListQuery(query);
  if (!parsed.ok) throw new Error("refused");
  return parsed.query.filters;
}

/** The cells of one CSV line, its quotes read as RFC 4180 says. */
function cellsOf(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quoted && char === '"' && line[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  return [...cells, cell];
}

/** The same database handle with no postgres.js client in reach: the export's PGlite path (keyset pages). */
const withoutCursor = (db: Db) => Object.create(db, { $client: { value: undefined } }) as Db;

describe("Export CSV of the payments list", () => {
  it("writes a header, payments newest first, amounts in the currency's decimals, times ISO 8601 UTC", async () => {
    const { serviceId } = await consoleMerchant();
    const tnd = await storedPayment(serviceId, {
      currency: "TND",
      amountMinor: 12000,
      createdAt: new Date("2026-02-01T10:00:00.123Z"),
      method: "card",
      card: { brand: "visa", last4: "4242" },
    });
    const dzd = await storedPayment(serviceId, {
      currency: "DZD",
      amountMinor: 150,
      createdAt: new Date("2026-02-01T09:00:00Z"),
      state: "FAILED",
    });
    const jpy = await storedPayment(serviceId, {
      currency: "JPY",
      amountMinor: 7,
      createdAt: new Date("2026-02-01T08:00:00Z"),
      method: "qr_wallet",
      state: "PRE_AUTHORIZED",
    });
    const text = await exported(await getDb(), serviceId);
    expect(text.split("\r\n")).toEqual([
      EXPORT_HEADER.join(","),
      `2026-02-01T10:00:00.123Z,${tnd.id},${tnd.actionId},12.000,12.000,0.000,12.000,TND,SUCCEEDED,2,card,visa,4242,` +
        `Customer ${tnd.phone},'${tnd.phone}`,
      `2026-02-01T09:00:00.000Z,${dzd.id},${dzd.actionId},1.50,0.00,0.00,0.00,DZD,FAILED,3,wallet,,,` +
        `Customer ${dzd.phone},'${dzd.phone}`,
      `2026-02-01T08:00:00.000Z,${jpy.id},${jpy.actionId},7,0,0,0,JPY,PRE_AUTHORIZED,13,qr_wallet,,,` +
        `Customer ${jpy.phone},'${jpy.phone}`,
      "",
    ]);
  });

  describe("the money that moved", () => {
    /**
     * A TND reservation of 12.000 captured 10.500, then refunded 1.250 and 2.000; a DZD one of 5000.00 captured
     * 4500.00, refunded 500.00 and 250.50.
     */
    async function partlyCapturedAndRefunded() {
      const { serviceId } = await consoleMerchant();
      const tnd = await storedPayment(serviceId, {
        currency: "TND",
        amountMinor: 12_000,
        capturedMinor: 10_500,
        refundsMinor: [1_250, 2_000],
        state: "PARTIALLY_REFUNDED",
        name: 'أمينة بن علي, "حلويات الياسمين"',
        phone: "+21620123456",
        createdAt: new Date("2026-02-02T10:00:00Z"),
      });
      const dzd = await storedPayment(serviceId, {
        currency: "DZD",
        amountMinor: 500_000,
        capturedMinor: 450_000,
        refundsMinor: [50_000, 25_050],
        state: "PARTIALLY_REFUNDED",
        name: "Société Benali; Alger",
        phone: "+213555123456",
        createdAt: new Date("2026-02-01T10:00:00Z"),
      });
      return { serviceId, tnd, dzd };
    }

    it("carries captured, refunded, net (captured - refunded) in currency decimals, the customer's name", async () => {
      const { serviceId, tnd, dzd } = await partlyCapturedAndRefunded();
      const lines = (await exported(await getDb(), serviceId)).split("\r\n");
      expect(lines[0]).toBe(
        "created,paymentId,actionId,amount,captured,refunded,net," +
          "currency,status,statusCode,method,cardBrand,cardLast4,customerName,customerPhone",
      );
      expect(lines[1]).toBe(
        `2026-02-02T10:00:00.000Z,${tnd.id},${tnd.actionId},12.000,10.500,3.250,7.250,TND,PARTIALLY_REFUNDED,16,` +
          `wallet,,,"أمينة بن علي, ""حلويات الياسمين""",'+21620123456`,
      );
      expect(lines[2]).toBe(
        `2026-02-01T10:00:00.000Z,${dzd.id},${dzd.actionId},5000.00,4500.00,750.50,3749.50,DZD,PARTIALLY_REFUNDED,` +
          `16,wallet,,,"Société Benali; Alger",'+213555123456`,
      );
      // The PGlite path (keyset pages) writes the same file.
      expect(await exported(withoutCursor(await getDb()), serviceId)).toBe(lines.join("\r\n"));
    });

    it("starts with a UTF-8 byte order mark, so Excel reads Arabic names as Arabic", async () => {
      const { serviceId } = await partlyCapturedAndRefunded();
      const bytes = new Uint8Array(
        await new Response(exportPaymentsCsv(await getDb(), { serviceId, filters: NO_FILTERS })).arrayBuffer(),
      );
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.slice(3, 10))).toBe("created");
      expect(new TextDecoder().decode(bytes)).toContain("أمينة بن علي");
    });

    it("with the semicolon separator, writes decimal commas and keeps every name in its one cell", async () => {
      const { serviceId, tnd, dzd } = await partlyCapturedAndRefunded();
      const text = await new Response(
        exportPaymentsCsv(await getDb(), { serviceId, filters: NO_FILTERS, separator: "semicolon" }),
      ).text();
      const lines = text.split("\r\n");
      expect(lines[0]).toBe(
        "created;paymentId;actionId;amount;captured;refunded;net;" +
          "currency;status;statusCode;method;cardBrand;cardLast4;customerName;customerPhone",
      );
      expect(lines[1]).toBe(
        `2026-02-02T10:00:00.000Z;${tnd.id};${tnd.actionId};"12,000";"10,500";"3,250";"7,250";TND;PARTIALLY_REFUNDED;` +
          `16;wallet;;;"أمينة بن علي, ""حلويات الياسمين""";'+21620123456`,
      );
      expect(lines[2]).toBe(
        `2026-02-01T10:00:00.000Z;${dzd.id};${dzd.actionId};"5000,00";"4500,00";"750,50";"3749,50";DZD;` +
          `PARTIALLY_REFUNDED;16;wallet;;;"Société Benali; Alger";'+213555123456`,
      );
      // Read back as a spreadsheet would (quotes respected), each line has the header's 15 cells.
      for (const line of lines.slice(1, 3)) expect(cellsOf(line, ";")).toHaveLength(15);
      expect(cellsOf(lines[1]!, ";")[13]).toBe('أمينة بن علي, "حلويات الياسمين"');
    });

    it("refuses an unknown separator (the route answers 400)", () => {
      expect(exportSeparatorOf(undefined)).toBe("comma");
      expect(exportSeparatorOf("semicolon")).toBe("semicolon");
      expect(exportSeparatorOf("tab")).toBeNull();
    });
  });

  it("exports only the current filters' rows of the one service, the same by cursor and by keyset pages", async () => {
    const { serviceId } = await consoleMerchant();
    const other = await consoleMerchant();
    await storedPayment(other.serviceId, { state: "FAILED" });
    for (let i = 0; i < 5; i += 1)
      await storedPayment(serviceId, { state: "FAILED", createdAt: new Date(`2026-03-0${i + 1}T00:00:00Z`) });
    await storedPayment(serviceId, { state: "SUCCEEDED" });
    const db = await getDb();
    const filters = filtersOf({ status: "FAILED" });
    const byCursor = await exported(db, serviceId, filters);
    expect(byCursor.split("\r\n").filter(Boolean)).toHaveLength(6);
    expect(byCursor).not.toContain("SUCCEEDED");
    expect(await exported(withoutCursor(db), serviceId, filters)).toBe(byCursor);
  });

  it("makes a formula-looking actionId inert and quotes what needs quotes", async () => {
    const { serviceId } = await consoleMerchant();
    const payment = await storedPayment(serviceId, { actionId: '=HYPERLINK("http://evil.example","click")' });
    const text = await exported(await getDb(), serviceId);
    expect(text).toContain(
      `,${payment.id},"'=HYPERLINK(""http://evil.example"",""click"")",15.00,15.00,0.00,15.00,DZD,`,
    );
  });

  it("returns its database connection when the reader stops reading (a stalled download)", async () => {
    const { serviceId } = await consoleMerchant();
    const db = await getDb();
    await db.execute(
      sql`
        with c as (
          insert into customers (service_id, name, phone) values (${serviceId}, 'Bulk', '+213700000002') returning id
        )
        -- amounts from 1001: a whole 737 would read as the test card's CVC in the suite's card-data scan
        insert into payments (service_id, customer_id, action_id, request_fingerprint, state, amount_minor,
          currency, country, expires_at, created_at)
        select ${serviceId}, c.id, 'stalled-' || g, 'fp', 'CREATED', 1000 + g, 'DZD', 'DZA', now(),
          timestamp '2026-01-01' + make_interval(secs => g)
        from c, generate_series(1, 2500) g`,
    );
    const openExports = async () =>
      sqlRows(
        await db.execute(sql`select pid from pg_stat_activity
          where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
            and query like 'select to_char(%'`),
      ).length;
    const reader = exportPaymentsCsv(db, { serviceId, filters: NO_FILTERS, readerIdleMs: 300 }).getReader();
    await reader.read(); // the header
    await reader.read(); // the first batch: the cursor is open
    expect(await openExports()).toBe(1);
    // The reader stops reading, without cancelling.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await openExports()).toBe(0);
    await expect(reader.read()).rejects.toThrow("the export's reader stopped reading");
  });

  it("streams a large export in batches (more rows than one batch)", async () => {
    const { serviceId } = await consoleMerchant();
    const db = await getDb();
    await db.execute(
      // 2,500 payments of one customer, written at once (the storedPayment factory would take a while).
      (await import("drizzle-orm")).sql`
        with c as (
          insert into customers (service_id, name, phone) values (${serviceId}, 'Bulk', '+213700000001') returning id
        )
        insert into payments (service_id, customer_id, action_id, request_fingerprint, state, amount_minor,
          currency, country, expires_at, created_at)
        select ${serviceId}, c.id, 'bulk-' || g, 'fp', 'CREATED', 1000 + g, 'DZD', 'DZA', now(),
          timestamp '2026-01-01' + make_interval(secs => g)
        from c, generate_series(1, 2500) g`,
    );
    const reader = exportPaymentsCsv(db, { serviceId, filters: NO_FILTERS }).getReader();
    let chunks = 0;
    let lines = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks += 1;
      lines += new TextDecoder().decode(read.value).split("\r\n").length - 1;
    }
    expect(lines).toBe(2501);
    expect(chunks).toBeGreaterThanOrEqual(4); // the header, then batches of 1,000
  });
});
