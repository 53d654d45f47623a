/**
 * ISO 4217 minor-unit exponents of the currencies the gateway accepts. A currency absent
 * here is refused at intent creation: guessing its exponent would misstate amounts.
 */
export const currencyExponents = {
  DZD: 2,
  MAD: 2,
  TND: 3,
  EUR: 2,
  USD: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  EGP: 2,
  SAR: 2,
  AED: 2,
  LYD: 3,
  JOD: 3,
  KWD: 3,
  BHD: 3,
  OMR: 3,
  XOF: 0,
  XAF: 0,
  JPY: 0,
} as const satisfies Record<string, 0 | 2 | 3>;

export type CurrencyCode = keyof typeof currencyExponents;

/** The most decimals any accepted currency allows: the currency-free bound of an amount field. */
export const MAX_EXPONENT = Math.max(...Object.values(currencyExponents));

export function isSupportedCurrency(code: string): code is CurrencyCode {
  return Object.hasOwn(currencyExponents, code);
}

export function currencyExponent(code: string): number {
  if (!isSupportedCurrency(code)) throw new Error(`Unsupported currency ${code}`);
  return currencyExponents[code];
}
