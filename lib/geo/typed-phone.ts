import { callingCodeOf, dialsTrunkZero, withoutTrunkZero } from "./calling-codes";

// What people put between digits, or what a copy from an Arabic page brings along: spaces
// (no-break ones too), dashes of every width, dots, slashes, brackets, and the invisible bidi marks.
const SEPARATORS = /[\s\-\u2010-\u2015\u2212.,/()[\]\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Arabic-Indic (٠-٩, U+0660) and Extended Arabic-Indic, the Persian and Urdu forms (۰-۹, U+06F0).
const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;
const E164 = /^\+[0-9]{8,15}$/;

function westernDigits(text: string): string {
  return text.replace(EASTERN_DIGITS, (digit) => {
    const code = digit.codePointAt(0)!;
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

/**
 * The E.164 numbers a phone typed by a person may be, for searches that look a customer up by
 * the number the buyer gives (contract 13): with or without `+` or `00`, with spaces, dashes,
 * dots or brackets, in Arabic-Indic or Persian digits, or in the national form of one of the
 * merchant's countries (`countries`, ISO alpha-3): "0555 12 34 56" is +213555123456 for a merchant
 * in Algeria (its trunk 0 dropped), "20 123 456" +21620123456 for one in Tunisia. Each is looked
 * up exactly (customers' unique (service, phone)); none when the text cannot be a phone.
 */
export function phoneNumbersOf(typed: string, countries: readonly string[]): string[] {
  const dialled = westernDigits(typed.trim())
    .replace(SEPARATORS, "")
    .replace(/^[\uff0b\ufe62]/, "+");
  const match = /^(\+|00)?(\d+)$/.exec(dialled);
  if (!match) return [];
  const [, international, digits] = match as unknown as [string, string | undefined, string];
  const numbers = new Set<string>();
  if (international) {
    // +213 0555 12 34 56: the habit of dialling 0 at home, after the code.
    numbers.add(withoutTrunkZero(`+${digits}`));
  } else {
    // The whole number typed without its "+": 213555123456.
    if (!digits.startsWith("0")) numbers.add(`+${digits}`);
    for (const country of countries) {
      const code = callingCodeOf(country);
      if (!code) continue;
      if (digits.startsWith("0")) {
        if (dialsTrunkZero(code)) numbers.add(`${code}${digits.slice(1)}`);
      } else {
        // The national number without a trunk 0: Tunisia's own form, or 555 12 34 56.
        numbers.add(`${code}${digits}`);
      }
    }
  }
  return [...numbers].filter((number) => E164.test(number));
}
