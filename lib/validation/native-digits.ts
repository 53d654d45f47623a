// Arabic-Indic (U+0660..) and Eastern Arabic-Indic (U+06F0..) digits, as Arabic keyboards type them.
const NATIVE_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** The same number in ASCII digits: what a buyer types on an Arabic keyboard reads as typed. */
export function toAsciiDigits(raw: string): string {
  return raw.replace(NATIVE_DIGITS, (digit) => String((digit.codePointAt(0)! - 0x0660) % 0x90));
}
