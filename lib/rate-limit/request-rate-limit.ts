import { systemClock, type Clock } from "../clock";
import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import { metrics } from "../metrics/gateway-metrics";
import { gcraOutcome, tightestOutcome, type GcraDecision, type RateLimitOutcome } from "./gcra";
import type { RateLimitCheck } from "./policies";
import { consumeRateLimits } from "./store";

/**
 * The rate limit state of one request: auth records the store's decisions here, and the
 * endpoint puts the resulting header fields on whatever it answers, success or error.
 * Limits read real time, never a service's sandbox clock: moving that clock must not
 * refill a quota.
 */
export class RequestRateLimit {
  #outcome: RateLimitOutcome | undefined;

  constructor(private readonly clock: Clock = systemClock) {}

  nowMs(): number {
    return this.clock.now().getTime();
  }

  get outcome(): RateLimitOutcome | undefined {
    return this.#outcome;
  }

  /** Takes the decisions of a chain of checks (same order); throws 429 `rate_limited` when refused. */
  record(checks: readonly RateLimitCheck[], decisions: readonly GcraDecision[], nowMs: number): void {
    const outcomes = checks.map((check, index) => gcraOutcome(check.policy, decisions[index]!, nowMs));
    const reported = tightestOutcome(outcomes);
    if (!reported) return;
    this.#outcome = reported;
    if (!reported.allowed) {
      metrics.rateLimitRefusals.inc({ policy: reported.policy.name });
      throw new ApiError(
        "rate_limited",
        `Too many requests; retry after ${reported.retryAfterSeconds} s.`,
        undefined,
        this.headers(),
      );
    }
  }

  /**
   * Charges checks standalone (one statement or one EVALSHA), for requests whose auth has no lookup
   * to fold them into.
   */
  async enforce(db: Db, checks: readonly RateLimitCheck[]): Promise<void> {
    const nowMs = this.nowMs();
    const decisions = await consumeRateLimits(db, checks, nowMs);
    if (decisions) this.record(checks, decisions, nowMs);
  }

  /** RateLimit-Policy and RateLimit (IETF httpapi draft), plus Retry-After on a refusal. */
  headers(): Record<string, string> {
    const outcome = this.#outcome;
    if (!outcome) return {};
    const { policy } = outcome;
    const headers: Record<string, string> = {
      "ratelimit-policy": `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
      ratelimit: `"${policy.name}";r=${outcome.remaining};t=${outcome.resetSeconds}`,
    };
    if (!outcome.allowed) headers["retry-after"] = String(outcome.retryAfterSeconds);
    return headers;
  }
}
