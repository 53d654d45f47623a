/**
 * Card details as a buyer types them, checked the same way in the hosted card page (so a
 * typo is caught before anything is sent) and by the sandbox card provider (which never
 * trusts the page). Pure functions without server imports: the browser bundle uses them.
 */

export type CardBrand = "visa" | "mastercard";

/** Brands the gateway accepts (contract section 9: Visa and Mastercard). */
export const CARD_BRANDS: readonly CardBrand[] = ["visa", "mastercard"];

const BRAND_NAMES: Record<CardBrand, string> = { visa: "Visa", mastercard: "Mastercard" };

/** How a brand is written for people ("Visa ending in 4242"). */
export function brandName(brand: string): string {
  return (BRAND_NAMES as Record<string, string>)[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

// Arabic-Indic (U+0660..) and Eastern Arabic-Indic (U+06F0..) digits, as Arabic keyboards type them.
const NATIVE_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** ASCII digits only: spaces, dashes and native digits from Arabic keyboards are normalised. */
export function normalizeDigits(raw: string): string {
  return raw
    .replace(NATIVE_DIGITS, (digit) => String((digit.codePointAt(0)! - 0x0660) % 0x90))
    .replace(/[\s\-\u00A0\u202F.]/g, "");
}

/** The Luhn (mod 10) check every Visa and Mastercard number passes. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The brand a number's prefix names, as soon as the first digits are typed. Mastercard
 * covers 51-55 and the 2221-2720 range.
 */
export function detectBrand(rawNumber: string): CardBrand | null {
  const digits = normalizeDigits(rawNumber);
  if (/^4/.test(digits)) return "visa";
  if (/^5[1-5]/.test(digits)) return "mastercard";
  const prefix4 = Number(digits.slice(0, 4));
  if (digits.length >= 4 && prefix4 >= 2221 && prefix4 <= 2720) return "mastercard";
  return null;
}

const BRAND_LENGTHS: Record<CardBrand, readonly number[]> = { visa: [13, 16, 19], mastercard: [16] };

export type CardNumberProblem = "required" | "unsupported_brand" | "incomplete" | "luhn";

export type CardNumberCheck =
  { ok: true; digits: string; brand: CardBrand; last4: string } | { ok: false; problem: CardNumberProblem };

export function checkCardNumber(rawNumber: string): CardNumberCheck {
  const digits = normalizeDigits(rawNumber);
  if (digits.length === 0) return { ok: false, problem: "required" };
  if (!/^\d+$/.test(digits)) return { ok: false, problem: "luhn" };
  const brand = detectBrand(digits);
  if (!brand) return { ok: false, problem: "unsupported_brand" };
  if (!BRAND_LENGTHS[brand].includes(digits.length)) return { ok: false, problem: "incomplete" };
  if (!passesLuhn(digits)) return { ok: false, problem: "luhn" };
  return { ok: true, digits, brand, last4: digits.slice(-4) };
}

/** Groups of four, as printed on the card, for the field as the buyer types. */
export function formatCardNumber(rawNumber: string): string {
  const digits = normalizeDigits(rawNumber).replace(/\D/g, "").slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

export type ExpiryProblem = "required" | "format" | "past";

export type ExpiryCheck = { ok: true; month: number; year: number } | { ok: false; problem: ExpiryProblem };

/**
 * MM/YY (also M/YY, MMYY, MM/YYYY). A card is good through the last day of its month, so
 * the current month is still valid; `now` is read in UTC like the provider does.
 */
export function checkExpiry(raw: string, now: Date): ExpiryCheck {
  const value = normalizeDigitsKeepSlash(raw);
  if (value.length === 0) return { ok: false, problem: "required" };
  const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(value) ?? /^(\d{2})(\d{2})$/.exec(value);
  if (!match) return { ok: false, problem: "format" };
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return { ok: false, problem: "format" };
  return isExpiryPast(month, year, now) ? { ok: false, problem: "past" } : { ok: true, month, year };
}

export function isExpiryPast(month: number, year: number, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && month < currentMonth);
}

function normalizeDigitsKeepSlash(raw: string): string {
  return raw
    .replace(NATIVE_DIGITS, (digit) => String((digit.codePointAt(0)! - 0x0660) % 0x90))
    .replace(/[\s\u00A0\u202F]/g, "");
}

/** "MM/YY" as the buyer types: the slash appears after the month. */
export function formatExpiry(raw: string): string {
  const digits = normalizeDigits(raw).replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export type CvcProblem = "required" | "format";

/** Visa and Mastercard print three digits (contract section 9: any 3-digit CVC). */
export function checkCvc(raw: string): { ok: true; cvc: string } | { ok: false; problem: CvcProblem } {
  const cvc = normalizeDigits(raw);
  if (cvc.length === 0) return { ok: false, problem: "required" };
  return /^\d{3}$/.test(cvc) ? { ok: true, cvc } : { ok: false, problem: "format" };
}
