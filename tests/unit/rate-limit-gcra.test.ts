import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock } from "@/lib/clock";
import { ApiError } from "@/lib/errors/api-error";
import { gcraChain, gcraOutcome, gcraStep, tightestOutcome, type GcraDecision } from "@/lib/rate-limit/gcra";
import { rateLimitPolicies, type RateLimitPolicy } from "@/lib/rate-limit/policies";
import { RequestRateLimit } from "@/lib/rate-limit/request-rate-limit";

const secret = rateLimitPolicies.clientSecret; // 120 per 60 s: one back every 500 ms
const key = rateLimitPolicies.publishableKey; // 600 per 60 s

/** A limiter over one key with a clock the test moves. */
function limiter(policy: RateLimitPolicy, startMs = 1_700_000_000_000) {
  let tatMs: number | null = null;
  let nowMs = startMs;
  return {
    advance(ms: number) {
      nowMs += ms;
    },
    request() {
      const decision = gcraStep({ tatMs, nowMs, policy });
      tatMs = decision.tatMs;
      return gcraOutcome(policy, decision, nowMs);
    },
  };
}

function admittedOf(outcomes: { allowed: boolean }[]) {
  return outcomes.filter((outcome) => outcome.allowed).length;
}

describe("GCRA", () => {
  it("admits a whole quota at once and refuses the request after it", () => {
    const limit = limiter(secret);
    const outcomes = Array.from({ length: secret.quota + 1 }, () => limit.request());
    expect(admittedOf(outcomes.slice(0, secret.quota))).toBe(secret.quota);
    expect(outcomes[secret.quota]!.allowed).toBe(false);
  });

  it("counts remaining quota down with each admitted request", () => {
    const limit = limiter(secret);
    expect(limit.request().remaining).toBe(secret.quota - 1);
    expect(limit.request().remaining).toBe(secret.quota - 2);
  });

  it("gives quota back gradually, one request per emission interval, not all at a window edge", () => {
    const limit = limiter(secret);
    for (let i = 0; i < secret.quota; i += 1) limit.request();
    limit.advance(secret.intervalMs - 1);
    expect(limit.request().allowed).toBe(false);
    limit.advance(1);
    expect(limit.request().allowed).toBe(true);
    expect(limit.request().allowed).toBe(false);

    limit.advance(secret.windowMs / 2);
    const afterHalfWindow = Array.from({ length: secret.quota }, () => limit.request());
    expect(admittedOf(afterHalfWindow)).toBe(secret.quota / 2);
  });

  it("has the full quota back one window after the last admitted request", () => {
    const limit = limiter(secret);
    for (let i = 0; i < secret.quota; i += 1) limit.request();
    limit.advance(secret.windowMs);
    expect(admittedOf(Array.from({ length: secret.quota + 5 }, () => limit.request()))).toBe(secret.quota);
  });

  it("does not charge a refused request, so a client that backs off recovers on schedule", () => {
    const limit = limiter(secret);
    for (let i = 0; i < secret.quota; i += 1) limit.request();
    for (let i = 0; i < 50; i += 1) expect(limit.request().allowed).toBe(false);
    limit.advance(secret.intervalMs);
    expect(limit.request().allowed).toBe(true);
  });

  it("answers a Retry-After in whole seconds that is never earlier than the quota allows", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000 }), { minLength: 1, maxLength: 400 }), (gaps) => {
        let tatMs: number | null = null;
        let nowMs = 0;
        for (const gap of gaps) {
          nowMs += gap;
          const decision = gcraStep({ tatMs, nowMs, policy: secret });
          const outcome = gcraOutcome(secret, decision, nowMs);
          if (!outcome.allowed) {
            const wait = outcome.retryAfterSeconds * 1000;
            expect(Number.isInteger(outcome.retryAfterSeconds)).toBe(true);
            // Waiting exactly Retry-After is admitted; a whole second less would still be refused.
            expect(gcraStep({ tatMs, nowMs: nowMs + wait, policy: secret }).allowed).toBe(true);
            expect(gcraStep({ tatMs, nowMs: nowMs + wait - 1000, policy: secret }).allowed).toBe(false);
          }
          tatMs = decision.tatMs;
        }
      }),
    );
  });

  it("never admits more than the quota plus what refilled since, in any stretch of time", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 600 }), (gaps) => {
        let tatMs: number | null = null;
        let nowMs = 0;
        const admittedAt: number[] = [];
        for (const gap of gaps) {
          nowMs += gap;
          const decision = gcraStep({ tatMs, nowMs, policy: secret });
          tatMs = decision.tatMs;
          if (decision.allowed) admittedAt.push(nowMs);
        }
        for (let from = 0; from < admittedAt.length; from += 1) {
          for (let to = from; to < admittedAt.length; to += 1) {
            const span = admittedAt[to]! - admittedAt[from]!;
            expect(to - from + 1).toBeLessThanOrEqual(secret.quota + Math.floor(span / secret.intervalMs));
          }
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe("a chain of limits (merchant_auth: client secret, then publishable key)", () => {
  const checks = [
    { policy: secret, key: "secret:p" },
    { policy: key, key: "key:k" },
  ];

  it("charges both limits for an admitted request", () => {
    const [onSecret, onKey] = gcraChain([null, null], checks, 0);
    expect(onSecret).toEqual({ tatMs: secret.intervalMs, allowed: true });
    expect(onKey).toEqual({ tatMs: key.intervalMs, allowed: true });
  });

  it("does not charge the publishable key for a request its client secret's limit refused", () => {
    const exhaustedSecret = secret.windowMs; // the TAT a full burst leaves
    const [onSecret, onKey] = gcraChain([exhaustedSecret, 5_000], checks, 0);
    expect(onSecret!.allowed).toBe(false);
    expect(onKey).toEqual({ tatMs: 5_000, allowed: false });
  });

  it("reports the limit that refused, else the one with the least quota left", () => {
    const outcomes = (decisions: GcraDecision[]) =>
      checks.map((check, i) => gcraOutcome(check.policy, decisions[i]!, 0));
    const refusedBySecret = tightestOutcome(outcomes(gcraChain([secret.windowMs, null], checks, 0)));
    expect(refusedBySecret?.policy.name).toBe("secret");
    expect(refusedBySecret?.allowed).toBe(false);

    // 100 of the key's 600 left, 119 of the secret's 120: the key is tighter.
    const keyNearlySpent = tightestOutcome(outcomes(gcraChain([null, 500 * key.intervalMs], checks, 0)));
    expect(keyNearlySpent?.policy.name).toBe("key");
    expect(keyNearlySpent?.remaining).toBe(99);
  });
});

describe("RequestRateLimit header fields", () => {
  const clockAt = (ms: number): Clock => ({ now: () => new Date(ms) });
  const check = { policy: secret, key: "secret:p" };

  it("sends RateLimit-Policy and RateLimit for an admitted request, without Retry-After", () => {
    const limit = new RequestRateLimit(clockAt(0));
    limit.record([check], [{ tatMs: 83 * secret.intervalMs, allowed: true }], 0);
    expect(limit.headers()).toEqual({
      "ratelimit-policy": '"secret";q=120;w=60',
      ratelimit: '"secret";r=37;t=42',
    });
  });

  it("throws 429 rate_limited carrying Retry-After in whole seconds when refused", () => {
    const limit = new RequestRateLimit(clockAt(0));
    // Right after a full burst at 0 and 100 ms on: the next unit returns in 400 ms, rounded up to 1 s.
    const refused = () => limit.record([check], [{ tatMs: secret.windowMs, allowed: false }], 100);
    expect(refused).toThrow(ApiError);
    try {
      refused();
    } catch (error) {
      expect((error as ApiError).errorName).toBe("rate_limited");
      expect((error as ApiError).headers).toMatchObject({ "retry-after": "1", ratelimit: '"secret";r=0;t=60' });
    }
  });

  it("sends nothing when no limit applied to the request", () => {
    expect(new RequestRateLimit().headers()).toEqual({});
  });
});
