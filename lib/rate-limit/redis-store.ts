import { createHash } from "node:crypto";
import { createClient } from "redis";
import { getConfig } from "../config";
import { logger } from "../log";
import type { GcraDecision } from "./gcra";
import type { RateLimitCheck } from "./policies";

const KEY_PREFIX = "gw:rl:";

/**
 * `gcraChain` (gcra.ts) as one Lua script: Redis runs it atomically, so instances racing on
 * a key cannot both take its last unit. KEYS are the chain's keys in order; ARGV[1] is now
 * (ms), then interval and window (ms) per key. Replies tat, allowed (1/0) per key. A key
 * expires when its TAT passes: that is the moment it would mean "full quota" anyway.
 */
export const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local admitted = true
local reply = {}
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[i * 2])
  local window = tonumber(ARGV[i * 2 + 1])
  local tat = tonumber(redis.call('GET', key)) or now
  local nextTat = math.max(tat, now) + interval
  local allowed = 0
  if admitted and nextTat - now <= window then
    redis.call('SET', key, string.format('%.0f', nextTat), 'PX', string.format('%.0f', nextTat - now))
    tat = nextTat
    allowed = 1
  else
    admitted = false
  end
  reply[#reply + 1] = tat
  reply[#reply + 1] = allowed
end
return reply
`;

const GCRA_SHA1 = createHash("sha1").update(GCRA_SCRIPT).digest("hex");

export interface RedisRateLimitStore {
  consume(checks: readonly RateLimitCheck[], nowMs: number): Promise<GcraDecision[]>;
  close(): Promise<void>;
}

/** How long the first use waits for Redis before going on without it (reconnecting meanwhile). */
const FIRST_CONNECT_WAIT_MS = 2_000;

export async function openRedisRateLimitStore(url: string): Promise<RedisRateLimitStore> {
  // No offline queue: while Redis is unreachable a check fails at once (and the request goes
  // on, see store.ts) instead of waiting for a reconnect, which keeps trying in the background.
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000) },
  });
  client.on("error", (error: unknown) => logger.warn({ err: error }, "rate limit store (redis) error"));
  const connecting = client.connect();
  connecting.catch(() => {});
  await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref())]);

  return {
    async consume(checks, nowMs) {
      if (checks.length === 0) return [];
      const options = {
        keys: checks.map((check) => KEY_PREFIX + check.key),
        arguments: [
          String(nowMs),
          ...checks.flatMap((check) => [String(check.policy.intervalMs), String(check.policy.windowMs)]),
        ],
      };
      let reply: unknown;
      try {
        reply = await client.evalSha(GCRA_SHA1, options);
      } catch (error) {
        // A restarted or flushed Redis forgets scripts: send it once in full, EVALSHA after.
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        reply = await client.eval(GCRA_SCRIPT, options);
      }
      const values = (reply as unknown[]).map(Number);
      return checks.map((_, index) => ({ tatMs: values[index * 2]!, allowed: values[index * 2 + 1] === 1 }));
    },
    async close() {
      await client.close();
    },
  };
}

// One client per process, on globalThis so Next's dev reloads reuse it.
const globalForRedis = globalThis as unknown as { gatewayRateLimitRedis?: Promise<RedisRateLimitStore> };

export function getRedisRateLimitStore(): Promise<RedisRateLimitStore> {
  if (!globalForRedis.gatewayRateLimitRedis) {
    const url = getConfig().REDIS_URL;
    if (!url) throw new Error("REDIS_URL is not set");
    const opening = openRedisRateLimitStore(url);
    opening.catch(() => {
      if (globalForRedis.gatewayRateLimitRedis === opening) globalForRedis.gatewayRateLimitRedis = undefined;
    });
    globalForRedis.gatewayRateLimitRedis = opening;
  }
  return globalForRedis.gatewayRateLimitRedis;
}

export async function closeRedisRateLimitStore(): Promise<void> {
  const opening = globalForRedis.gatewayRateLimitRedis;
  globalForRedis.gatewayRateLimitRedis = undefined;
  if (opening) await (await opening).close().catch(() => {});
}
