import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientSecretFor } from "@/lib/auth/client-secret";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { rateLimitPolicies } from "@/lib/rate-limit/policies";
import { apiClient, merchantAuth, type ApiClient } from "../support/api";
import { createMerchant } from "../support/factories";
import { spawnProbeGateway, startProbeGateway, type ProbeGateway } from "./rate-limit-probe";

/**
 * Two gateway instances: this process and a child process, each with its own connection
 * pool, on one PostgreSQL database. Only a database server can be shared by two processes,
 * so this file needs DATABASE_URL (CI sets it); the embedded PGlite cannot host it.
 */
describe("two gateway instances on one PostgreSQL database", () => {
  let here: ProbeGateway;
  let there: ProbeGateway;
  let instances: ApiClient[];

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    [here, there] = await Promise.all([startProbeGateway(), spawnProbeGateway({ REDIS_URL: "" })]);
    instances = [apiClient(here.baseUrl), apiClient(there.baseUrl)];
  });
  afterAll(async () => {
    await Promise.all([here?.close(), there?.close()]);
  });

  it("together admit no more than one client secret's quota", async () => {
    const merchant = await createMerchant();
    const paymentId = randomUUID();
    const clientSecret = clientSecretFor(await getGatewayKey(await getDb()), paymentId);
    // Warm both instances (module load, prepared statements) so the burst measures the limit.
    const warmUp = clientSecretFor(await getGatewayKey(await getDb()), randomUUID());
    await Promise.all(
      instances.map((api) => api.get(`/probe/merchant/${warmUp.slice(3, 39)}`, merchantAuth(merchant, warmUp))),
    );
    const sent = 300;
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: sent }, (_, index) =>
        instances[index % 2]!.get(`/probe/merchant/${paymentId}`, merchantAuth(merchant, clientSecret)).then(
          (response) => ({
            instance: index % 2,
            status: response.status,
          }),
        ),
      ),
    );
    const elapsedMs = performance.now() - started;
    const admitted = responses.filter((response) => response.status === 200);
    expect(responses.every((response) => response.status === 200 || response.status === 429)).toBe(true);
    // Separate counts would admit 120 on each instance; one shared count admits 120, plus
    // whatever the quota regained (one per 500 ms) while the burst lasted.
    expect(admitted.length).toBeGreaterThanOrEqual(120);
    expect(admitted.length).toBeLessThanOrEqual(
      120 + Math.floor(elapsedMs / rateLimitPolicies.clientSecret.intervalMs),
    );
    for (const instance of [0, 1]) {
      const own = responses.filter((response) => response.instance === instance);
      expect(own.some((response) => response.status === 200)).toBe(true);
      expect(own.some((response) => response.status === 429)).toBe(true);
    }
  });
});
