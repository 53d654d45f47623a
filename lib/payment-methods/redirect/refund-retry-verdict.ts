/*
 * Whether a refund whose answer was lost (a timeout, a reset) went through at the provider.
 * SATIM's and ClicToPay's refund.do and CMI's Credit carry no idempotency key: calling again
 * refunds twice. What the provider does say is how much of the order it has refunded in all, so
 * the retry compares that total with the gateway's own record of the order's refunds.
 */

export type RefundRetryVerdict = "applied" | "not_applied" | "ambiguous";

/** Past this many other open refunds of one order the subsets are not enumerated: ambiguous. */
const MAX_OPEN_REFUNDS = 12;

/**
 * `refundedAtProvider`: the provider's refunded total of the order. `settledMinor`: the
 * refunds of the order the gateway settled as done. `otherOpenMinor`: the amounts of the
 * order's other refunds not settled yet (each may or may not have reached the provider).
 *
 * The refund went through when every way of explaining the provider's total with the open
 * refunds includes it, and did not when none does. Otherwise (two open refunds of one amount,
 * or a total nothing explains, such as a refund made in the provider's back office) nobody can
 * tell: the operation stays unknown, reconciliation asks again later, and the backlog's age
 * alert (ops/gateway-alerts.yml) brings a person to it. Never calling twice is the point.
 */
export function refundRetryVerdict(input: { refundedAtProvider: number; settledMinor: number; amountMinor: number; otherOpenMinor: readonly number[] }): RefundRetryVerdict {
  const unexplained = input.refundedAtProvider - input.settledMinor;
  const others = input.otherOpenMinor;
  if (others.length > MAX_OPEN_REFUNDS) return "ambiguous";
  let withThis = false;
  let withoutThis = false;
  for (let subset = 0; subset < 1 << others.length; subset += 1) {
    let sum = 0;
    for (let index = 0; index < others.length; index += 1) if (subset & (1 << index)) sum += others[index]!;
    if (sum === unexplained) withoutThis = true;
    if (sum + input.amountMinor === unexplained) withThis = true;
  }
  if (withThis && !withoutThis) return "applied";
  if (withoutThis && !withThis) return "not_applied";
  return "ambiguous";
}
