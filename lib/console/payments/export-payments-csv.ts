import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cardPayments, customers, payments } from "../../db/schema";
import { formatMinorUnits } from "../../money/amount";
import { csvRecord } from "./csv";
import { listPayments, paymentRowColumns } from "./list-payments";
import { decodePaymentCursor } from "./payment-cursor";
import { paymentListConditions } from "./payment-list-conditions";
import type { PaymentListFilters } from "./payment-list-filters";
import { methodOf, type PaymentListRow } from "./payment-list-row";
import { checkStatusCode, type PaymentState } from "../../payments/core/payment-state";

/**
 * The export's columns, in order (docs/console-payments.md describes each). Amounts are in
 * standard units with exactly the currency's decimals: what was asked for, what was captured
 * (a reservation may be captured in part), what refunds gave back, and net = captured - refunded.
 */
export const EXPORT_HEADER = [
  "created",
  "paymentId",
  "actionId",
  "amount",
  "captured",
  "refunded",
  "net",
  "currency",
  "status",
  "statusCode",
  "method",
  "cardBrand",
  "cardLast4",
  "customerName",
  "customerPhone",
];

/**
 * The file's two forms: RFC 4180's commas with decimal points (the default, what a program
 * reads), or semicolons with decimal commas, what Excel expects where the list separator is ";"
 * (French and Arabic Windows): opened with a double click, every value lands in its column.
 */
export const EXPORT_SEPARATORS = ["comma", "semicolon"] as const;
export type ExportSeparator = (typeof EXPORT_SEPARATORS)[number];

/** The `separator` of the export's URL: absent is the comma; anything else unknown is null (refused). */
export function exportSeparatorOf(value: string | null | undefined): ExportSeparator | null {
  if (value === null || value === undefined || value === "") return "comma";
  return EXPORT_SEPARATORS.find((known) => known === value) ?? null;
}

// Excel reads a .csv without a byte order mark in the machine's ANSI code page (Windows-1252 or
// -1256): Arabic names and "é" come out garbled. Programs that read CSV skip it (Python's
// utf-8-sig, most libraries; a WHATWG TextDecoder drops it).
const UTF8_BOM = "\uFEFF";

/** Rows fetched from the database at a time. */
const BATCH_ROWS = 1000;

/**
 * How long the export waits for its reader to take the next batch. The cursor holds one of the
 * pool's connections while it is open: a download left stalled (a client that stopped reading
 * but kept its socket) would hold it for good, and a few of them would take the pool the payments
 * API runs on. Past this the export ends with an error and its connection is returned.
 */
export const EXPORT_READER_IDLE_MS = 60_000;

/** A list row with its time already written as the file shows it. */
type ExportRecord = Omit<PaymentListRow, "createdAt"> & { createdIso: string };

/**
 * "Export CSV" of the payments list's current filters (contract 13): every matching payment of
 * the service, newest first, as RFC 4180 UTF-8 (with a byte order mark, for Excel) with a header
 * row, amounts with exactly their currency's decimals, times in ISO 8601 UTC (to the
 * millisecond, as a Date holds it). A web ReadableStream a route
 * returns as is: rows are read from a database cursor (postgres.js) a batch at a time as the
 * client reads, so memory stays bounded however many rows there are; on PGlite, by keyset pages.
 */
export function exportPaymentsCsv(
  db: Db,
  options: { serviceId: string; filters: PaymentListFilters; separator?: ExportSeparator; readerIdleMs?: number },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const toLine = csvLineWriter(options.separator ?? "comma");
  let batches: AsyncIterator<ExportRecord[]> | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(UTF8_BOM + toLine.header));
    },
    async pull(controller) {
      clearTimeout(idle);
      batches ??= exportBatches(db, options);
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map(toLine.record).join("")));
      const open = batches;
      idle = setTimeout(() => {
        controller.error(new Error("the export's reader stopped reading"));
        void open.return?.(undefined);
      }, options.readerIdleMs ?? EXPORT_READER_IDLE_MS);
      idle.unref?.();
    },
    async cancel() {
      clearTimeout(idle);
      await batches?.return?.();
    },
  });
}

function csvLineWriter(separator: ExportSeparator) {
  const cell = separator === "semicolon" ? ";" : ",";
  const amount = (minor: number, currency: string) => {
    const text = formatMinorUnits(minor, currency);
    return separator === "semicolon" ? text.replace(".", ",") : text;
  };
  return {
    header: csvRecord(EXPORT_HEADER, cell),
    record(record: ExportRecord): string {
      const method = record.method;
      return csvRecord(
        [
          record.createdIso,
          record.id,
          record.actionId,
          amount(record.amountMinor, record.currency),
          amount(record.capturedMinor, record.currency),
          amount(record.refundedMinor, record.currency),
          amount(record.capturedMinor - record.refundedMinor, record.currency),
          record.currency,
          record.state,
          String(record.statusCode),
          method?.kind ?? "",
          method?.kind === "card" ? (method.brand ?? "") : "",
          method?.kind === "card" ? (method.last4 ?? "") : "",
          record.customerName,
          record.customerPhone,
        ],
        cell,
      );
    },
  };
}

type PostgresJsClient = {
  unsafe(query: string, params: unknown[]): { cursor(rows: number): AsyncIterable<Record<string, unknown>[]> };
};

function postgresJsClient(db: Db): PostgresJsClient | null {
  const client = (db as unknown as { $client?: { unsafe?: unknown } }).$client;
  return client && typeof client.unsafe === "function" ? (client as PostgresJsClient) : null;
}

/** The export's one statement, read through a cursor. Exported for the benchmark's EXPLAIN. */
export function exportQuery(db: Db, options: { serviceId: string; filters: PaymentListFilters }) {
  return db
    .select({
      createdIso: sql<string>`to_char(${payments.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      amountMinor: sql<string>`${payments.amountMinor}::text`,
      ...paymentRowColumns,
    })
    .from(payments)
    .innerJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(cardPayments, eq(cardPayments.paymentId, payments.id))
    .where(paymentListConditions(options.serviceId, options.filters))
    .orderBy(desc(payments.createdAt), desc(payments.id));
}

async function* exportBatches(
  db: Db,
  options: { serviceId: string; filters: PaymentListFilters },
): AsyncGenerator<ExportRecord[]> {
  const client = postgresJsClient(db);
  if (!client) {
    yield* keysetBatches(db, options);
    return;
  }
  const query = exportQuery(db, options).toSQL();
  // Raw driver rows, in the select's order (drizzle's field names are not applied on this path).
  for await (const rows of client.unsafe(query.sql, query.params).cursor(BATCH_ROWS)) {
    yield rows.map((row) => {
      const [
        createdIso,
        amountMinor,
        id,
        actionId,
        currency,
        state,
        paymentMethodCode,
        transactionType,
        cardBrand,
        cardLast4,
        customerPhone,
        capturedMinor,
        refundedMinor,
        customerName,
      ] = Object.values(row) as string[];
      return {
        createdIso: createdIso!,
        id: id!,
        actionId: actionId!,
        amountMinor: Number(amountMinor),
        capturedMinor: Number(capturedMinor),
        refundedMinor: Number(refundedMinor),
        customerName: customerName!,
        currency: currency!,
        state: state as PaymentState,
        statusCode: checkStatusCode(state as PaymentState),
        method: methodOf({
          paymentMethodCode: paymentMethodCode ?? null,
          transactionType: (transactionType ?? null) as "QR_CODE" | null,
          cardBrand: cardBrand ?? null,
          cardLast4: cardLast4 ?? null,
        }),
        customerPhone: customerPhone!,
      };
    });
  }
}

/** PGlite has no server cursor here: the list's own keyset pages, a batch at a time. */
async function* keysetBatches(
  db: Db,
  options: { serviceId: string; filters: PaymentListFilters },
): AsyncGenerator<ExportRecord[]> {
  let after: string | null = null;
  do {
    const cursor = after ? decodePaymentCursor(after) : null;
    const page = await listPayments(db, {
      serviceId: options.serviceId,
      query: { filters: options.filters, cursor: cursor ? { direction: "after", at: cursor } : null },
      pageSize: BATCH_ROWS,
    });
    yield page.rows.map(({ createdAt, ...row }) => ({ ...row, createdIso: createdAt.toISOString() }));
    after = page.after;
  } while (after);
}
