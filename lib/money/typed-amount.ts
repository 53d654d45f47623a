import { toAsciiDigits } from "../validation/native-digits";

/** What a person typed in an amount field, read: nothing, a negative amount, not a number, or the amount. */
export type TypedAmount =
  | { kind: "empty" }
  | { kind: "negative" }
  | { kind: "not_a_number" }
  /** `fractionDigits` as typed ("10,50" has 2), for a caller that knows the currency's decimals. */
  | { kind: "amount"; value: number; fractionDigits: number };

/** The message of a refused negative amount (its own words on a page: lib consumers pass it to the form's field). */
export const NEGATIVE_AMOUNT = "must not be negative";

/**
 * An amount as a person types it in a form, in standard units: "150", "150.5", "150,50" (a
 * decimal comma, as French writes it, or the Arabic decimal separator U+066B), Arabic-Indic
 * digits, spaces ignored. The one reading of a typed amount: the payment link page and the
 * console's forms (capture, refund, a link's amounts, the payments list's amount filters).
 */
export function readTypedAmount(text: string | null | undefined): TypedAmount {
  const typed = toAsciiDigits(text ?? "").replace(/\s/g, "");
  if (!typed) return { kind: "empty" };
  const normalized = typed.replace(/[,\u066B]/, ".");
  // A minus sign: the hyphen-minus or U+2212, as a phone keyboard may type it.
  if (/^[-\u2212]\d+(\.\d+)?$/.test(normalized)) return { kind: "negative" };
  if (!/^\d+(\.\d+)?$/.test(normalized)) return { kind: "not_a_number" };
  return { kind: "amount", value: Number(normalized), fractionDigits: (normalized.split(".")[1] ?? "").length };
}
