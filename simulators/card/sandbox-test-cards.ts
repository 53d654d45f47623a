/**
 * Contract section 9: what the sandbox does with each test card. Any other number that is a
 * valid Visa or Mastercard number (Luhn, length, future expiry, 3-digit CVC) succeeds too.
 */
export type SandboxCardBehavior = "succeed" | "decline" | "insufficient_funds" | "three_d_secure";

const TEST_CARDS: Record<string, SandboxCardBehavior> = {
  "4242424242424242": "succeed",
  "5555555555554444": "succeed",
  "4000000000000002": "decline",
  "4000000000009995": "insufficient_funds",
  "4000000000003220": "three_d_secure",
};

export function sandboxBehaviorOf(digits: string): SandboxCardBehavior {
  return TEST_CARDS[digits] ?? "succeed";
}
