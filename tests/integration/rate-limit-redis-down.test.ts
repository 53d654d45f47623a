import { afterAll, beforeAll, expect, it } from "vitest";
import { closeRedisRateLimitStore } from "@/lib/rate-limit/redis-store";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

// A Redis nobody listens on: set before the first getConfig().
process.env.REDIS_URL = "redis://127.0.0.1:1";

const { api } = useTestGateway();
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  merchant = await createMerchant();
});
afterAll(async () => {
  await closeRedisRateLimitStore();
});

it("keeps serving, unlimited and without limit fields, while Redis cannot answer", async () => {
  const first = await api.post("/api/v1/customers", { name: "A", phone: randomPhone() }, clientAuth(merchant));
  expect(first.status).toBe(201);
  expect(first.headers.get("ratelimit")).toBeNull();

  // Later requests do not wait for a reconnect either (the store refuses at once).
  const second = await api.post("/api/v1/customers", { name: "B", phone: randomPhone() }, clientAuth(merchant));
  expect(second.status).toBe(201);
  expect(second.headers.get("ratelimit-policy")).toBeNull();
});
