import { toMinorUnits } from "./amount";
import { currencyExponents, MAX_EXPONENT, type CurrencyCode } from "./currencies";

/**
 * An amount bound (a filter's "from" or "to", in standard units) for payments of several
 * currencies: minor units differ by the currency's exponent, so the bound is one integer per
 * exponent. A bound finer than a currency's decimals is rounded inward, so "from 1.005" never
 * admits 1.00 of a two-decimal currency and "to 1.005" never admits 1.01.
 */
export interface MinorBoundByExponent {
  exponent: number;
  currencies: CurrencyCode[];
  minor: number;
}

/** Throws AmountError for an amount no accepted currency can hold (more than MAX_EXPONENT decimals, zero, negative). */
export function minorBoundsByExponent(amount: number, side: "from" | "to"): MinorBoundByExponent[] {
  const finest = toMinorUnits(amount, finestCurrency());
  return exponentGroups().map(({ exponent, currencies }) => {
    const scale = 10 ** (MAX_EXPONENT - exponent);
    return { exponent, currencies, minor: side === "from" ? Math.ceil(finest / scale) : Math.floor(finest / scale) };
  });
}

function finestCurrency(): CurrencyCode {
  return (Object.keys(currencyExponents) as CurrencyCode[]).find((code) => currencyExponents[code] === MAX_EXPONENT)!;
}

function exponentGroups(): { exponent: number; currencies: CurrencyCode[] }[] {
  const groups = new Map<number, CurrencyCode[]>();
  for (const code of Object.keys(currencyExponents) as CurrencyCode[]) {
    const exponent = currencyExponents[code];
    groups.set(exponent, [...(groups.get(exponent) ?? []), code]);
  }
  return [...groups].sort(([a], [b]) => a - b).map(([exponent, currencies]) => ({ exponent, currencies }));
}
