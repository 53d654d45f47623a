/*
 * Whether a refund whose answer was lost (a timeout, a reset, a process that died mid-call)
 * went through at the provider. SATIM's and ClicToPay's refund.do and CMI's Credit carry no
 * idempotency key: calling again refunds twice. What the provider does say is how much of the
 * order it has refunded in all, so the retry compares that total with the gateway's own record
 * of the order's refunds.
 */

export type RefundRetryVerdict = "applied" | "not_applied" | "ambiguous";

/** One refund of the order whose fate is open. `rank`: its place among them by creation (created_at, id). */
export interface OpenRefund {
  amountMinor: number;
  rank: number;
  /** A request or a reconciliation worker may be calling the provider for it right now (status pending). */
  mayBeInFlight: boolean;
}

/** Past this many other open refunds of one order the subsets are not enumerated: ambiguous. */
const MAX_OPEN_REFUNDS = 12;

/**
 * `refundedAtProvider`: the provider's refunded total of the order. `settledMinor`: the
 * order's refunds the gateway settled as done. `self`: the refund being retried; `others`: the
 * order's other refunds not settled yet (each may or may not have reached the provider).
 *
 * The refund went through when every way of explaining the provider's total with the open
 * refunds includes it, and did not when none does. Open refunds of one amount cannot be told
 * apart by a total, and need not be: when every explanation takes the same amounts and none of
 * the refunds concerned may be in flight, the earliest of each amount count as the ones that
 * went through, and every worker deciding from the same total decides alike. Anything else (a
 * total nothing explains, such as a refund made in the provider's back office, or two
 * explanations with different amounts) nobody can tell: the operation stays unknown,
 * reconciliation asks again later, and the backlog's age alert (ops/gateway-alerts.yml) brings a
 * person to it. Never refunding twice is the point.
 */
export function refundRetryVerdict(input: {
  refundedAtProvider: number;
  settledMinor: number;
  self: OpenRefund;
  others: readonly OpenRefund[];
}): RefundRetryVerdict {
  const { self, others } = input;
  if (others.length > MAX_OPEN_REFUNDS) return "ambiguous";
  const unexplained = input.refundedAtProvider - input.settledMinor;
  const all = [...others, self];
  // Every set of open refunds (self last) whose amounts add up to what the provider refunded unexplained.
  const explanations: OpenRefund[][] = [];
  for (let subset = 0; subset < 1 << all.length; subset += 1) {
    const members = all.filter((_, index) => subset & (1 << index));
    if (members.reduce((sum, refund) => sum + refund.amountMinor, 0) === unexplained) explanations.push(members);
  }
  if (explanations.length === 0) return "ambiguous";
  const withSelf = explanations.filter((members) => members.includes(self));
  if (withSelf.length === explanations.length) return "applied";
  if (withSelf.length === 0) return "not_applied";
  const amountsOf = (members: OpenRefund[]) =>
    members
      .map((refund) => refund.amountMinor)
      .sort((a, b) => a - b)
      .join(",");
  if (new Set(explanations.map(amountsOf)).size > 1) return "ambiguous";
  const sameAmount = all.filter((refund) => refund.amountMinor === self.amountMinor);
  if (sameAmount.some((refund) => refund !== self && refund.mayBeInFlight)) return "ambiguous";
  const applied = explanations[0]!.filter((refund) => refund.amountMinor === self.amountMinor).length;
  const earlier = sameAmount.filter((refund) => refund.rank < self.rank).length;
  return earlier < applied ? "applied" : "not_applied";
}
