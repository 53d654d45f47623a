/**
 * International calling codes (ITU-T E.164) of the gateway's markets and their neighbours, for
 * the phone field a payment link page offers with its country's code already typed.
 */
const CALLING_CODE_BY_ALPHA3: Readonly<Record<string, string>> = {
  DZA: "+213",
  MAR: "+212",
  TUN: "+216",
  LBY: "+218",
  EGY: "+20",
  MRT: "+222",
  SEN: "+221",
  FRA: "+33",
  BEL: "+32",
  ESP: "+34",
};

// The codes whose national numbers are dialled with a trunk 0 at home (0555 12 34 56) and
// written without it after the code (+213 555 12 34 56).
const TRUNK_ZERO_CODES = ["+213", "+212", "+218", "+20", "+33", "+32"];

/**
 * A phone as a buyer types it after the calling code the page offers: `+2130555123456`
 * (the habit of dialling 0 at home) is `+213555123456`, the same wallet, not another number.
 */
export function withoutTrunkZero(phone: string): string {
  const code = TRUNK_ZERO_CODES.find((prefix) => phone.startsWith(`${prefix}0`));
  return code ? `${code}${phone.slice(code.length + 1)}` : phone;
}

/** Whether numbers after this calling code are dialled at home with a trunk 0 (`+213` yes, `+216` no). */
export function dialsTrunkZero(callingCode: string): boolean {
  return TRUNK_ZERO_CODES.includes(callingCode);
}

/** `DZA` -> `+213`; null for a country not listed (the buyer types the whole number). */
export function callingCodeOf(alpha3: string): string | null {
  return CALLING_CODE_BY_ALPHA3[alpha3] ?? null;
}
