import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/lib/db/client";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { createPrivatePostgres, type PrivatePostgres } from "@/scripts/lib/private-postgres";
import { recreateDatabase } from "@/scripts/lib/recreate-database";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { check, createIntent, intentBody, postIntent, refund, serverHeaders } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

/**
 * Contract section 12, database outage, for real: the gateway runs on a PostgreSQL cluster of
 * this file's own (port 4162, never the shared server), which the tests stop and start again.
 */
let cluster: PrivatePostgres;

beforeAll(async () => {
  cluster = createPrivatePostgres({ port: 4162, prefix: "gateway-outage-" });
  cluster.start();
  await recreateDatabase(cluster.url("gateway"));
  process.env.DATABASE_URL = cluster.url("gateway");
  (globalThis as { gatewayConfig?: unknown }).gatewayConfig = undefined;
}, 120_000);
const { api } = useTestGateway();
afterAll(async () => {
  await closeDatabase();
  cluster?.destroy();
});

let merchant: OnboardedMerchant;
beforeAll(async () => {
  await getDb();
  merchant = await createMerchant();
});

function expectServiceUnavailable(response: { status: number; headers: Headers; body: any }) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  expect(response.body).toMatchObject({ code: 503, status: "error", error: { name: "service_unavailable" } });
  expect(response.body.message).toMatch(/briefly unavailable/);
}

describe("database outage (contract section 12)", () => {
  it("answers API calls 503 service_unavailable with Retry-After while the database is down; then serves", async () => {
    const paid = await createIntent(api, merchant);
    cluster.stop("fast");
    try {
      expectServiceUnavailable(await postIntent(api, merchant, intentBody()));
      expectServiceUnavailable(await check(api, paid.paymentId, serverHeaders(merchant)));
      expectServiceUnavailable(
        await refund(api, merchant, paid.paymentId, { description: "x", amount: 1 }, { "idempotency-key": "outage-1" }),
      );
      expectServiceUnavailable(await api.get("/api/v1/customers/search/+213555000000", clientAuth(merchant)));
    } finally {
      cluster.start();
    }
    // postgres.js reconnects by itself: the next calls are served, and the key used during the
    // outage was not left claimed (the refund is refused for its state, not "in progress").
    const created = await postIntent(api, merchant, intentBody());
    expect(created.status).toBe(201);
    const checked = await check(api, paid.paymentId, serverHeaders(merchant));
    expect(checked.status).toBe(200);
    const retried = await refund(
      api,
      merchant,
      paid.paymentId,
      { description: "x", amount: 1 },
      { "idempotency-key": "outage-1" },
    );
    expect(retried.body.error?.name).toBe("invalid_state");
  }, 120_000);
});

describe("which errors mean the database is unavailable", () => {
  it("recognizes a refused connection, an admin shutdown mid-query and a closed PGlite, not a bad query", async () => {
    const sql = postgres(cluster.url("gateway"), { max: 1, onnotice: () => {} });
    try {
      const badQuery = await sql`select * from no_such_table`.catch((error: unknown) => error);
      expect(isDatabaseUnavailable(badQuery)).toBe(false);

      const sleeping = sql`select pg_sleep(30)`.catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 300));
      cluster.stop("fast");
      const shutdown = await sleeping;
      expect((shutdown as { code?: string }).code).toMatch(/57P01|CONNECTION_CLOSED|CONNECTION_ENDED/);
      expect(isDatabaseUnavailable(shutdown)).toBe(true);

      const refused = await sql`select 1`.catch((error: unknown) => error);
      expect(isDatabaseUnavailable(refused)).toBe(true);
    } finally {
      cluster.start();
      await sql.end({ timeout: 1 });
    }

    const { PGlite } = await import("@electric-sql/pglite");
    const embedded = new PGlite();
    await embedded.close();
    expect(isDatabaseUnavailable(await embedded.query("select 1").catch((error: unknown) => error))).toBe(true);
  }, 120_000);
});
