import { DrizzleQueryError, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { findPayment } from "@/lib/db/payment-record";
import { prepared } from "@/lib/db/prepared";
import { apiCredentials, payments, services } from "@/lib/db/schema";
import { serviceColumns } from "@/lib/auth/service-columns";
import { createMerchant } from "../support/factories";
import { createIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

// Prepared statements map their rows with decoders resolved once (lib/db/fast-execute.ts)
// instead of drizzle's per-row `mapResultRow`: every row must be the one drizzle answers for the
// same statement, nested objects, left joins that found nothing, SQL fields and errors included.
const { api } = useTestGateway();

it("answers the payment row drizzle answers (dates, numbers, json, nulls)", async () => {
  const merchant = await createMerchant();
  const intent = await createIntent(api, merchant, { metaData: { order: "A-1", lines: [1, 2] } });
  const db = await getDb();
  const [viaDrizzle] = await db.select().from(payments).where(eq(payments.id, intent.paymentId));
  const viaPrepared = await findPayment(db, intent.paymentId);
  expect(viaPrepared).toStrictEqual(viaDrizzle);
  expect(viaPrepared?.createdAt).toBeInstanceOf(Date);
  expect(typeof viaPrepared?.amountMinor).toBe("number");
});

it("answers a left join that found nothing, a nested object and SQL fields as drizzle does", async () => {
  const merchant = await createMerchant();
  const db = await getDb();
  const build = (db: Awaited<ReturnType<typeof getDb>>) =>
    db
      .select({
        credentialId: apiCredentials.id,
        service: serviceColumns,
        answer: sql<number>`41 + 1`.mapWith(Number),
        raw: sql<string>`'x'`,
      })
      .from(sql`(select 1) as one`)
      .leftJoin(apiCredentials, eq(apiCredentials.clientId, sql.placeholder("clientId")))
      .leftJoin(services, eq(services.id, apiCredentials.serviceId));
  const query = prepared(db, "test_resolved_row_mapping", (db) => build(db).prepare("test_resolved_row_mapping"));
  // The resolved mapping is in place (postgres.js), not drizzle's own execute.
  expect(Object.hasOwn(query, "execute")).toBe(true);
  for (const clientId of [merchant.clientId, "no-such-client"]) {
    const expected = await build(db).execute({ clientId });
    expect(await query.execute({ clientId })).toStrictEqual(expected);
  }
  const [missing] = await query.execute({ clientId: "no-such-client" });
  expect(missing).toMatchObject({ credentialId: null, service: null, answer: 42, raw: "x" });
});

it("fails with drizzle's DrizzleQueryError, the driver's error as its cause", async () => {
  const db = await getDb();
  const query = prepared(db, "test_resolved_row_mapping_error", (db) =>
    db.select({ id: payments.id }).from(payments).where(sql`${payments.id} = ${sql.placeholder("id")}::uuid`).prepare("test_resolved_row_mapping_error"),
  );
  const error = await query.execute({ id: "not-a-uuid" }).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(DrizzleQueryError);
  expect((error as { cause?: { code?: string } }).cause?.code).toBe("22P02");
});
