import { currencyExponent } from "./currencies";

/** Contract section 2: no single amount above this many standard units. */
export const MAX_AMOUNT_STANDARD_UNITS = 1_000_000_000;

/** Why an amount was refused, worded for the `details[].message` of a validation_error. */
export class AmountError extends Error {}

// The shortest round-trip text of a JS number: digits, optional fraction, optional exponent.
const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * Standard units (a JSON number) to an integer of minor units, by the number's decimal
 * text and integer arithmetic only, so 0.3 is 30 cents and never 29.999999999999996.
 */
export function toMinorUnits(amount: number, currency: string): number {
  if (typeof amount !== "number" || !Number.isFinite(amount)) throw new AmountError("must be a finite number");
  if (amount <= 0) throw new AmountError("must be greater than zero");
  const exponent = currencyExponent(currency);
  const { digits, scale } = decimalParts(amount);
  if (scale > exponent) {
    throw new AmountError(
      exponent === 0
        ? `must be a whole number for ${currency}`
        : `must have at most ${exponent} decimal places for ${currency}`,
    );
  }
  const minor = digits * 10n ** BigInt(exponent - scale);
  if (minor > BigInt(MAX_AMOUNT_STANDARD_UNITS) * 10n ** BigInt(exponent)) {
    throw new AmountError(`must be at most ${MAX_AMOUNT_STANDARD_UNITS}`);
  }
  return Number(minor);
}

/** Minor units back to a JSON number of standard units: 30 EUR cents -> 0.3. */
export function fromMinorUnits(minor: number, currency: string): number {
  return Number(formatMinorUnits(minor, currency));
}

/** Exact decimal text of an amount, with every decimal of the currency: 30 -> "0.30". */
export function formatMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`minor units must be a safe integer, got ${minor}`);
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(exponent + 1, "0");
  if (exponent === 0) return `${sign}${text}`;
  return `${sign}${text.slice(0, -exponent)}.${text.slice(-exponent)}`;
}

/** How many decimals the number's text carries once trailing zeros are dropped (1.50 -> 1). */
export function decimalPlaces(value: number): number {
  return decimalParts(value).scale;
}

/** value = digits / 10^scale, with trailing fractional zeros removed and scale >= 0. */
function decimalParts(value: number): { digits: bigint; scale: number } {
  const match = DECIMAL_TEXT.exec(String(value));
  if (!match) throw new AmountError("must be a plain decimal number");
  const [, whole, fraction = "", exponent = "0"] = match;
  let digits = `${whole}${fraction}`;
  let scale = fraction.length - Number(exponent);
  while (scale > 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (scale < 0) {
    digits += "0".repeat(-scale);
    scale = 0;
  }
  return { digits: BigInt(digits), scale };
}
