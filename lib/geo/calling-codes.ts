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

/** `DZA` -> `+213`; null for a country not listed (the buyer types the whole number). */
export function callingCodeOf(alpha3: string): string | null {
  return CALLING_CODE_BY_ALPHA3[alpha3] ?? null;
}
