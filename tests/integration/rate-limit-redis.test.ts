import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientSecretFor } from "@/lib/auth/client-secret";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb, onQuery } from "@/lib/db/client";
import { rateLimitPolicies } from "@/lib/rate-limit/policies";
import { closeRedisRateLimitStore } from "@/lib/rate-limit/redis-store";
import { apiClient, clientAuth, merchantAuth, type ApiClient } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useGatewayAndProbe } from "../support/probe-gateway";
import { spawnProbeGateway, type ProbeGateway } from "./rate-limit-probe";

// Every gateway of this file keeps its limits in Redis. Set before the first getConfig().
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
process.env.REDIS_URL = REDIS_URL;

// Registered first, so it runs last: after both gateways are closed.
afterAll(() => closeRedisRateLimitStore());
const { api, probe } = useGatewayAndProbe();

async function burst(client: ApiClient[], count: number) {
  const merchant = await createMerchant();
  const paymentId = randomUUID();
  const clientSecret = clientSecretFor(await getGatewayKey(await getDb()), paymentId);
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      client[index % client.length]!.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret)).then(
        (response) => ({ ...response, instance: index % client.length }),
      ),
    ),
  );
  return { responses, elapsedMs: performance.now() - started };
}

describe("with REDIS_URL set", () => {
  it("sends the header fields from the Redis count", async () => {
    const merchant = await createMerchant();
    const response = await api.post("/api/v1/customers", { name: "A", phone: randomPhone() }, clientAuth(merchant));
    expect(response.status).toBe(201);
    expect(response.headers.get("ratelimit-policy")).toBe('"client";q=6000;w=60');
    expect(response.headers.get("ratelimit")).toBe('"client";r=5999;t=1');
  });

  it("keeps the limits out of PostgreSQL: auth costs the statements it did before limits", async () => {
    const merchant = await createMerchant();
    await api.post("/api/v1/customers", { name: "Warm", phone: randomPhone() }, clientAuth(merchant));
    const statements: string[] = [];
    const stop = onQuery((query) => statements.push(query));
    const response = await api.post(
      "/api/v1/customers",
      { name: "Counted", phone: randomPhone() },
      clientAuth(merchant),
    );
    stop();
    expect(response.status).toBe(201);
    expect(statements).toHaveLength(2);
    expect(statements.some((query) => query.includes("rate_limits"))).toBe(false);
  });

  it("refuses requests past 120 with one client secret with 429 and Retry-After", async () => {
    const { responses, elapsedMs } = await burst([probe], 160);
    const admitted = responses.filter((response) => response.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(120);
    expect(admitted).toBeLessThanOrEqual(120 + Math.floor(elapsedMs / rateLimitPolicies.clientSecret.intervalMs));
    const refused = responses.filter((response) => response.status === 429);
    expect(refused.length).toBe(160 - admitted);
    for (const response of refused) {
      expect(response.body.error.name).toBe("rate_limited");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("ratelimit")).toMatch(/^"secret";r=0;t=\d+$/);
    }
  });
});

// A second instance needs a database both processes share: a PostgreSQL server (CI sets DATABASE_URL).
describe("two gateway instances sharing Redis", () => {
  let there: ProbeGateway;
  beforeAll(async () => {
    there = await spawnProbeGateway({ REDIS_URL });
  });
  afterAll(() => there?.close());

  it("together admit no more than one client secret's quota", async () => {
    const instances = [probe, apiClient(there.baseUrl)];
    // Warm the second instance (module load, Redis connection) so the burst measures the limit.
    await burst(instances, 2);
    const { responses, elapsedMs } = await burst(instances, 300);
    const admitted = responses.filter((response) => response.status === 200).length;
    expect(responses.every((response) => response.status === 200 || response.status === 429)).toBe(true);
    expect(admitted).toBeGreaterThanOrEqual(120);
    expect(admitted).toBeLessThanOrEqual(120 + Math.floor(elapsedMs / rateLimitPolicies.clientSecret.intervalMs));
    for (const instance of [0, 1]) {
      const own = responses.filter((response) => response.instance === instance);
      expect(own.some((response) => response.status === 200)).toBe(true);
      expect(own.some((response) => response.status === 429)).toBe(true);
    }
  });
});
