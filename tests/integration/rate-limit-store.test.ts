import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { gcraChain, type GcraDecision } from "@/lib/rate-limit/gcra";
import { rateLimitPolicies, type RateLimitCheck } from "@/lib/rate-limit/policies";
import { consumeInPostgres } from "@/lib/rate-limit/postgres-store";
import { openRedisRateLimitStore, type RedisRateLimitStore } from "@/lib/rate-limit/redis-store";
import { sweepRateLimits } from "@/lib/rate-limit/sweep-rate-limits";

// Redis is part of the test environment (see the report): a missing server fails loudly.
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

let redis: RedisRateLimitStore;
let redisAgain: RedisRateLimitStore;
beforeAll(async () => {
  [redis, redisAgain] = await Promise.all([openRedisRateLimitStore(REDIS_URL), openRedisRateLimitStore(REDIS_URL)]);
});
afterAll(async () => {
  await Promise.all([redis.close(), redisAgain.close()]);
});

type Consume = (checks: readonly RateLimitCheck[], nowMs: number) => Promise<GcraDecision[]>;

const { clientSecret: secret, publishableKey: key, customer } = rateLimitPolicies;

/** Requests as a store would see them: a time step, then a burst of one chain of checks over a few keys. */
const scenario = fc.array(
  fc.record({
    stepMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 100, max: 3_000 })),
    chain: fc.constantFrom("secret+key", "secret", "customer"),
    payment: fc.integer({ min: 0, max: 2 }),
    // Small bursts, and bursts past the secret's whole quota of 120.
    burst: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 100, max: 180 })),
  }),
  { minLength: 5, maxLength: 15 },
);

type Step = { stepMs: number; chain: "secret+key" | "secret" | "customer"; payment: number; burst: number };

/** Replays a scenario through a store and through the reference function, side by side. */
async function replay(consume: Consume, steps: Step[], seen: { allowed: number; refused: number }) {
  const run = randomUUID();
  const tats = new Map<string, number>();
  // Simulated time runs at least as fast as the wall clock, so Redis key expiry (real
  // time) never forgets a TAT that is still ahead of the simulated now.
  let offsetMs = 0;
  for (const step of steps) {
    offsetMs += step.stepMs;
    const secretCheck = { policy: secret, key: `secret:${run}-${step.payment}` };
    const checks: RateLimitCheck[] =
      step.chain === "secret+key"
        ? [secretCheck, { policy: key, key: `key:${run}` }]
        : step.chain === "secret"
          ? [secretCheck]
          : [{ policy: customer, key: `customer:${run}` }];
    for (let request = 0; request < step.burst; request += 1) {
      const nowMs = Date.now() + offsetMs;
      const expected = gcraChain(
        checks.map((check) => tats.get(check.key) ?? null),
        checks,
        nowMs,
      );
      // A TAT in the past means "full quota" however far past it is (a store may have
      // forgotten it): compare what it means, not how stale it is.
      const meaning = (decisions: GcraDecision[]) =>
        decisions.map((decision) => ({ allowed: decision.allowed, tatMs: Math.max(decision.tatMs, nowMs) }));
      expect(meaning(await consume(checks, nowMs))).toEqual(meaning(expected));
      checks.forEach((check, index) => tats.set(check.key, expected[index]!.tatMs));
      if (expected[0]!.allowed) seen.allowed += 1;
      else seen.refused += 1;
    }
  }
}

describe("the stores answer exactly as the reference GCRA", () => {
  it("PostgreSQL: one upsert per chain gives the reference decisions and TATs", async () => {
    const db = await getDb();
    const seen = { allowed: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, (steps) =>
        replay((checks, nowMs) => consumeInPostgres(db, checks, nowMs), steps, seen),
      ),
      { numRuns: 3 },
    );
    // The scenarios reached both answers, so both paths of the upsert were compared.
    expect(seen.allowed).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });

  it("Redis: the Lua script gives the reference decisions and TATs", async () => {
    const seen = { allowed: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, (steps) => replay((checks, nowMs) => redis.consume(checks, nowMs), steps, seen)),
      { numRuns: 3 },
    );
    expect(seen.allowed).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});

describe("concurrent charges of one key", () => {
  const burst = 200;

  it("PostgreSQL: 200 parallel requests at one instant admit exactly the 120 of the quota", async () => {
    const db = await getDb();
    const checks = [{ policy: secret, key: `secret:${randomUUID()}` }];
    const nowMs = Date.now();
    const decisions = await Promise.all(Array.from({ length: burst }, () => consumeInPostgres(db, checks, nowMs)));
    expect(decisions.filter(([decision]) => decision!.allowed)).toHaveLength(secret.quota);
  });

  it("Redis: 200 parallel requests through two clients at one instant admit exactly the 120 of the quota", async () => {
    const checks = [{ policy: secret, key: `secret:${randomUUID()}` }];
    const nowMs = Date.now();
    const decisions = await Promise.all(
      Array.from({ length: burst }, (_, index) => (index % 2 === 0 ? redis : redisAgain).consume(checks, nowMs)),
    );
    expect(decisions.filter(([decision]) => decision!.allowed)).toHaveLength(secret.quota);
  });
});

describe("sweeping the PostgreSQL store", () => {
  it("deletes only keys whose quota is whole again, which changes no answer", async () => {
    const db = await getDb();
    const run = randomUUID();
    const nowMs = Date.now();
    const spent = `secret:${run}-spent`;
    const whole = `secret:${run}-whole`;
    await consumeInPostgres(db, [{ policy: secret, key: spent }], nowMs + 60_000);
    await consumeInPostgres(db, [{ policy: secret, key: whole }], nowMs - 60_000);
    await sweepRateLimits(db, { clock: { now: () => new Date(nowMs) } });
    const left = await db
      .select({ key: schema.rateLimits.key })
      .from(schema.rateLimits)
      .where(inArray(schema.rateLimits.key, [spent, whole]));
    expect(left.map((row) => row.key)).toEqual([spent]);
  });
});

describe("the PostgreSQL store's table", () => {
  it("stays a page or two however often one key is charged, whether autovacuum runs or not", async () => {
    // A connection of its own, on which a temporary copy of rate_limits (its columns and
    // indexes) hides the shared table: only this test writes to the copy, so its size is ours.
    await getDb(); // opening it migrates the shared database, whose table is copied
    const client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      await client`create temporary table rate_limits (like public.rate_limits including all)`;
      const db = drizzle({ client, schema }) as unknown as Db;
      const nowMs = Date.now();
      for (let request = 0; request < 2_000; request += 1) {
        await consumeInPostgres(db, [{ policy: secret, key: "secret:one-payment" }], nowMs + request * 1_000);
      }
      const [size] = await client<{ heap: number; indexes: number }[]>`
        select pg_relation_size('pg_temp.rate_limits')::int as heap,
          pg_indexes_size('pg_temp.rate_limits')::int as indexes`;
      // Each charge is a HOT update, which the next one prunes. With an index on tat_ms (before
      // 0007) every charge left a version and an index entry behind: 7 heap pages here, growing until a vacuum.
      expect(size!.heap).toBeLessThanOrEqual(2 * 8192);
      expect(size!.indexes).toBeLessThanOrEqual(2 * 8192);
    } finally {
      await client.end();
    }
  });
});
