import { z } from "zod";
import { AmountError, toMinorUnits } from "../../money/amount";
import { minorBoundsByExponent, type MinorBoundByExponent } from "../../money/amount-bounds";
import { currencyExponent, isSupportedCurrency } from "../../money/currencies";
import { NEGATIVE_AMOUNT, readTypedAmount } from "../../money/typed-amount";
import { isPaymentLinkId } from "../../payment-links/payment-link.schema";
import { PAYMENT_STATES, type PaymentState } from "../../payments/core/payment-state";
import { instantOfWallClock } from "../../merchants/merchant-time-zone";
import { decodePaymentCursor, type PaymentCursor } from "./payment-cursor";
import { PAYMENT_METHODS } from "../../payment-methods/registry/payment-method-registry";

/** A QR intent is paid in the wallet app only, proceeded or not yet: the console shows it apart from its method. */
export const QR_INTENT_KIND = "qr_wallet";

/**
 * The methods the console tells apart (contract 13), the values of the list's `method` filter: each
 * registered method's kind (its module's ConsoleListing), in the registry's order, and the QR
 * intents beside the method whose app answers them (wallet, qr_wallet, card, satim, ...).
 */
export const CONSOLE_METHODS: readonly string[] = [
  ...new Set(
    Object.values(PAYMENT_METHODS).flatMap((method) =>
      method.showsQrCodeForQrIntents ? [method.console.kind, QR_INTENT_KIND] : [method.console.kind],
    ),
  ),
];
export type ConsoleMethod = string;

/** "must be wallet, qr_wallet, card or satim": the method filter's refusal, naming every value it takes. */
const METHOD_REFUSAL = `must be ${CONSOLE_METHODS.slice(0, -1).join(", ")} or ${CONSOLE_METHODS.at(-1)}`;

/** The payments list's filters as the domain uses them: amounts already in minor units. */
export interface PaymentListFilters {
  states: PaymentState[];
  method: ConsoleMethod | null;
  currency: string | null;
  createdFrom: Date | null;
  /** Exclusive. */
  createdBefore: Date | null;
  /** One bound per currency exponent (or one for the chosen currency). */
  amountFrom: MinorBoundByExponent[] | null;
  amountTo: MinorBoundByExponent[] | null;
  search: string | null;
  /** The merchant's countries (ISO alpha-3), whose national phone form the search reads ("0555 12 34 56"). */
  searchCountries?: readonly string[];
  /** One payment link's payments (`metaData.paymentLinkId`); the Payment links page links here. */
  paymentLinkId?: string | null;
  /** One customer's payments (the customer page); not a URL filter. */
  customerId?: string | null;
}

export interface PaymentListQuery {
  filters: PaymentListFilters;
  /** Older than this row (the next page), or newer than it (the previous page). */
  cursor: { direction: "after" | "before"; at: PaymentCursor } | null;
}

export const NO_FILTERS: PaymentListFilters = {
  states: [],
  method: null,
  currency: null,
  createdFrom: null,
  createdBefore: null,
  amountFrom: null,
  amountTo: null,
  search: null,
};

type QueryValue = string | string[] | undefined;
const one = (value: QueryValue) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
const many = (value: QueryValue) =>
  (Array.isArray(value) ? value : value === undefined ? [] : value.split(",")).map((v) => v.trim()).filter(Boolean);

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// An ISO 8601 time; without a zone it is the merchant's (its time zone setting, UTC when none is
// given), as every time the console shows is, and never the server's own zone.
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * The instant a date or time of the URL names in `timeZone` (a day: its midnight there), or null:
 * a day that does not exist (2026-02-30) is refused, not rolled into the next month.
 */
function instantOf(text: string, timeZone: string): Date | null {
  if (DATE_ONLY.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
      ? instantOfWallClock(`${text}T00:00:00`, timeZone)
      : null;
  }
  const time = ISO_TIME.exec(text);
  if (!time) return null;
  const [, date, hours, minutes, seconds = "00", zone] = time;
  const day = new Date(`${date}T00:00:00Z`);
  if (
    Number.isNaN(day.getTime()) ||
    day.toISOString().slice(0, 10) !== date ||
    Number(hours) > 23 ||
    Number(minutes) > 59 ||
    Number(seconds) > 59
  )
    return null;
  const parsed = zone ? new Date(text) : instantOfWallClock(`${date}T${hours}:${minutes}:${seconds}`, timeZone);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/**
 * The URL query of the payments list (kept in the URL so a filtered list can be shared):
 * `status` (repeated or comma-separated states), `method`, `currency`, `createdFrom`,
 * `createdTo` (a day in the merchant's time zone, included; or an ISO 8601 time), `amountFrom`,
 * `amountTo` (standard units), `q` (the one search box), `paymentLinkId` (one payment link's
 * payments), `after` / `before` (a page's cursor). Each problem is reported on its own field,
 * nothing is half applied.
 */
const listQuerySchema = (timeZone: string) =>
  z
    .object({
      status: z.array(z.string()),
      method: z.string().optional(),
      currency: z.string().optional(),
      createdFrom: z.string().optional(),
      createdTo: z.string().optional(),
      amountFrom: z.string().optional(),
      amountTo: z.string().optional(),
      q: z.string().max(100, "must be at most 100 characters").optional(),
      paymentLinkId: z
        .string()
        .refine(isPaymentLinkId, "must be a payment link id (plink_ followed by 26 characters)")
        .optional(),
      after: z.string().optional(),
      before: z.string().optional(),
    })
    .transform((query, ctx) => {
      const problem = (field: string, message: string, input: unknown) =>
        ctx.issues.push({ code: "custom", path: [field], message, input });
      const states = query.status.filter((state): state is PaymentState =>
        (PAYMENT_STATES as readonly string[]).includes(state),
      );
      if (states.length < query.status.length) problem("status", "is not a payment status", query.status);
      const method = CONSOLE_METHODS.find((known) => known === query.method) ?? null;
      if (query.method !== undefined && !method) problem("method", METHOD_REFUSAL, query.method);
      const currency = query.currency?.toUpperCase();
      if (currency !== undefined && !isSupportedCurrency(currency))
        problem("currency", "is not a currency the gateway accepts", query.currency);
      const time = (field: "createdFrom" | "createdTo", endOfDay: boolean): Date | null => {
        const text = query[field];
        if (text === undefined) return null;
        const parsed = instantOf(text, timeZone);
        if (!parsed) {
          ctx.issues.push({
            code: "custom",
            path: [field],
            message: "must be a date (YYYY-MM-DD) or an ISO 8601 time",
            input: text,
          });
          return null;
        }
        // A day's end is the next day's midnight there (23 or 25 hours away on a summer change).
        return DATE_ONLY.test(text) && endOfDay ? instantOfWallClock(`${nextDay(text)}T00:00:00`, timeZone) : parsed;
      };
      const amount = (field: "amountFrom" | "amountTo", side: "from" | "to"): MinorBoundByExponent[] | null => {
        const text = query[field];
        if (text === undefined) return null;
        const typed = readTypedAmount(text);
        if (typed.kind === "negative") {
          ctx.issues.push({ code: "custom", path: [field], message: NEGATIVE_AMOUNT, input: text });
          return null;
        }
        const value = typed.kind === "amount" ? typed.value : Number.NaN;
        try {
          // A chosen currency's own decimals are the rule: 1.234 DZD is refused, not rounded.
          if (currency && isSupportedCurrency(currency))
            return [
              { exponent: currencyExponent(currency), currencies: [currency], minor: toMinorUnits(value, currency) },
            ];
          return minorBoundsByExponent(value, side);
        } catch (error) {
          if (!(error instanceof AmountError) && !Number.isNaN(value)) throw error;
          ctx.issues.push({
            code: "custom",
            path: [field],
            message: Number.isNaN(value) ? "must be a number" : error instanceof Error ? error.message : "",
            input: text,
          });
          return null;
        }
      };
      const cursorOf = (field: "after" | "before") => {
        const text = query[field];
        if (text === undefined) return null;
        const at = decodePaymentCursor(text);
        if (!at) ctx.issues.push({ code: "custom", path: [field], message: "is not a page of this list", input: text });
        return at ? { direction: field, at } : null;
      };
      const filters: PaymentListFilters = {
        states: [...new Set(states)],
        method,
        currency: currency !== undefined && isSupportedCurrency(currency) ? currency : null,
        createdFrom: time("createdFrom", false),
        createdBefore: time("createdTo", true),
        amountFrom: amount("amountFrom", "from"),
        amountTo: amount("amountTo", "to"),
        search: query.q || null,
        paymentLinkId: query.paymentLinkId ?? null,
      };
      return { filters, cursor: cursorOf("after") ?? cursorOf("before") } satisfies PaymentListQuery;
    });

const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10);

// One schema per zone the list is read in (a few: one per merchant's zone), made on first use.
const schemas = new Map<string, ReturnType<typeof listQuerySchema>>();

function listQuerySchemaIn(timeZone: string): ReturnType<typeof listQuerySchema> {
  let schema = schemas.get(timeZone);
  if (!schema) {
    schema = listQuerySchema(timeZone);
    if (schemas.size < 1_000) schemas.set(timeZone, schema);
  }
  return schema;
}

export type FieldProblem = { field: string; message: string };

/**
 * The list's URL query read into filters, or every field's problem (shown beside the field).
 * `merchant`: its countries, whose national phone form the search box takes, and its time zone,
 * in which a day or a time without a zone is read (UTC when none is given).
 */
export function parsePaymentListQuery(
  query: Record<string, QueryValue>,
  merchant: { countries?: readonly string[]; timeZone?: string } = {},
): { ok: true; query: PaymentListQuery } | { ok: false; problems: FieldProblem[] } {
  const parsed = listQuerySchemaIn(merchant.timeZone ?? "UTC").safeParse({
    status: many(query.status),
    method: one(query.method),
    currency: one(query.currency),
    createdFrom: one(query.createdFrom),
    createdTo: one(query.createdTo),
    amountFrom: one(query.amountFrom),
    amountTo: one(query.amountTo),
    q: one(query.q),
    paymentLinkId: one(query.paymentLinkId),
    after: one(query.after),
    before: one(query.before),
  });
  if (parsed.success) {
    const { filters, cursor } = parsed.data;
    return {
      ok: true,
      query: { filters: merchant.countries ? { ...filters, searchCountries: merchant.countries } : filters, cursor },
    };
  }
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({ field: String(issue.path[0] ?? ""), message: issue.message })),
  };
}
