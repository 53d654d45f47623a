import { formatMinorUnits } from "../money/amount";
import { currencyExponent, isSupportedCurrency } from "../money/currencies";
import { numberLocale } from "./locales";
import type { Locale } from "./routing";

export interface FormatAmountOptions {
  /** Standard units, e.g. 12.345 for 12.345 TND. */
  amount: number;
  /** ISO 4217 code. */
  currency: string;
  locale: Locale;
}

/**
 * An amount as the buyer's language writes it: "TND 12.345", "12,345 TND". The digits come
 * from our ISO 4217 table, not CLDR's display digits, which differ for a few currencies:
 * a payment page must show every digit the payment holds.
 */
export function formatAmount({ amount, currency, locale }: FormatAmountOptions): string {
  return amountFormat(currency, locale).format(amount);
}

/**
 * An amount held in minor units (the console's figures), from its exact decimal text: no
 * floating point on the way, so 1,000,000,000.001 TND shows every digit it holds.
 */
export function formatMinorAmount({
  minor,
  currency,
  locale,
}: {
  minor: number;
  currency: string;
  locale: Locale;
}): string {
  return amountFormat(currency, locale).format(formatMinorUnits(minor, currency) as `${number}`);
}

// Building a NumberFormat loads its locale data: a list page formats 25 amounts, and the same
// few (locale, currency) pairs come back on every request. A format is immutable, so one each.
const amountFormats = new Map<string, Intl.NumberFormat>();

function amountFormat(currency: string, locale: Locale): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = amountFormats.get(key);
  if (!format) {
    format = newAmountFormat(currency, locale);
    // Currencies come from stored payments (a few dozen at most); the bound only guards the map.
    if (amountFormats.size < 1_000) amountFormats.set(key, format);
  }
  return format;
}

function newAmountFormat(currency: string, locale: Locale): Intl.NumberFormat {
  const digits = isSupportedCurrency(currency) ? currencyExponent(currency) : undefined;
  return new Intl.NumberFormat(numberLocale(locale), {
    style: "currency",
    currency,
    // The ISO code reads the same in every language and never confuses dinars of two countries.
    currencyDisplay: "code",
    ...(digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  });
}
