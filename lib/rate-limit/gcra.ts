import type { RateLimitCheck, RateLimitPolicy } from "./policies";

/**
 * GCRA (generic cell rate algorithm): a sliding limit with no window edges to game. Each key
 * keeps one number, the theoretical arrival time (TAT). A request is admitted when, after
 * moving the TAT one emission interval on, the TAT runs no more than one window ahead of
 * now; so a full quota can be spent at once, then quota returns one request per interval.
 *
 * This file is the reference: the PostgreSQL upsert (gcra-sql.ts) and the Redis script
 * (redis-store.ts) implement `gcraStep` and `gcraChain` in their own language, and a test
 * holds all three to the same answers.
 */

/** What a store answers for one check: the TAT it now holds, and whether it admitted the request. */
export interface GcraDecision {
  tatMs: number;
  allowed: boolean;
}

export function gcraStep(options: {
  /** The stored TAT, null when the key has none. */
  tatMs: number | null;
  nowMs: number;
  policy: RateLimitPolicy;
  /** False when an earlier limit of the same request refused it: then this one is not charged. */
  precondition?: boolean;
}): GcraDecision {
  const { tatMs, nowMs, policy, precondition = true } = options;
  const next = Math.max(tatMs ?? nowMs, nowMs) + policy.intervalMs;
  if (precondition && next - nowMs <= policy.windowMs) return { tatMs: next, allowed: true };
  return { tatMs: tatMs ?? nowMs, allowed: false };
}

/**
 * Several limits on one request (merchant_auth: per client secret, then per publishable key)
 * are charged in order, each only when every earlier one admitted the request, so a buyer's
 * tab polling past its own secret's limit does not eat the merchant's shared key quota.
 */
export function gcraChain(tats: (number | null)[], checks: readonly RateLimitCheck[], nowMs: number): GcraDecision[] {
  let precondition = true;
  return checks.map((check, index) => {
    const decision = gcraStep({ tatMs: tats[index] ?? null, nowMs, policy: check.policy, precondition });
    precondition &&= decision.allowed;
    return decision;
  });
}

/** What the response tells the caller about one policy (the IETF RateLimit fields and Retry-After). */
export interface RateLimitOutcome {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Requests still admissible at once, after this one. */
  remaining: number;
  /** Whole seconds until the full quota is back. */
  resetSeconds: number;
  /** Whole seconds, rounded up, until one more request would be admitted; 0 when admitted. */
  retryAfterSeconds: number;
}

export function gcraOutcome(policy: RateLimitPolicy, decision: GcraDecision, nowMs: number): RateLimitOutcome {
  const aheadMs = Math.max(0, decision.tatMs - nowMs);
  const remaining = Math.min(policy.quota, Math.max(0, Math.floor((policy.windowMs - aheadMs) / policy.intervalMs)));
  // Admitted again once max(tat, t) + interval - t <= window, i.e. at t = tat + interval - window.
  const waitMs = aheadMs + policy.intervalMs - policy.windowMs;
  return {
    policy,
    allowed: decision.allowed,
    remaining,
    resetSeconds: Math.ceil(aheadMs / 1000),
    // Rounded up, never down: a client that waits exactly Retry-After is admitted.
    retryAfterSeconds: decision.allowed ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/**
 * The one policy a response reports: the first that refused the request (later ones of the
 * chain were not evaluated), else the one with the least quota left.
 */
export function tightestOutcome(outcomes: readonly RateLimitOutcome[]): RateLimitOutcome | undefined {
  const refused = outcomes.find((outcome) => !outcome.allowed);
  if (refused) return refused;
  return outcomes.reduce<RateLimitOutcome | undefined>(
    (tightest, outcome) =>
      !tightest ||
      outcome.remaining < tightest.remaining ||
      (outcome.remaining === tightest.remaining && outcome.resetSeconds > tightest.resetSeconds)
        ? outcome
        : tightest,
    undefined,
  );
}
