import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listPayments } from "@/lib/console/payments/list-payments";
import { paymentListConditions } from "@/lib/console/payments/payment-list-conditions";
import { NO_FILTERS, parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { getDb } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/sql-rows";
import { payments } from "@/lib/db/schema";
import { consoleMerchant, storedPayment } from "../support/console-payments";

const LINK_A = "plink_01JZ0000000000000000000AAA";
const LINK_B = "plink_01JZ0000000000000000000BBB";

/** A stored payment made through a link: its intent names the link in metaData, as the link page writes it. */
async function paidThrough(serviceId: string, linkId: string) {
  const payment = await storedPayment(serviceId);
  const db = await getDb();
  await db
    .update(payments)
    .set({ metaData: { paymentLinkId: linkId, orderRef: "x" } })
    .where(eq(payments.id, payment.id));
  return payment.id;
}

describe("payments list: one payment link's payments (paymentLinkId)", () => {
  it("shows the link's payments only, of this merchant only", async () => {
    const { serviceId } = await consoleMerchant();
    const other = await consoleMerchant();
    const ofA = [await paidThrough(serviceId, LINK_A), await paidThrough(serviceId, LINK_A)];
    await paidThrough(serviceId, LINK_B);
    await storedPayment(serviceId);
    await paidThrough(other.serviceId, LINK_A);
    const parsed = parsePaymentListQuery({ paymentLinkId: LINK_A });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const page = await listPayments(await getDb(), { serviceId, query: parsed.query });
    expect(page.rows.map((row) => row.id).sort()).toEqual([...ofA].sort());
    const all = parsePaymentListQuery({});
    if (!all.ok) throw new Error("refused");
    expect((await listPayments(await getDb(), { serviceId, query: all.query })).rows).toHaveLength(4);
  });

  it("refuses what is not a payment link id, on its own field", () => {
    expect(parsePaymentListQuery({ paymentLinkId: "pay_123" })).toEqual({
      ok: false,
      problems: [{ field: "paymentLinkId", message: "must be a payment link id (plink_ followed by 26 characters)" }],
    });
  });

  it("is served by payments_link_idx", async () => {
    const { serviceId } = await consoleMerchant();
    const db = await getDb();
    const plan = await db.transaction(async (tx) => {
      // A test table is tiny: forbid the sequential scan so the plan shows which index can serve the filter.
      await tx.execute(sql`set local enable_seqscan = off`);
      const where = paymentListConditions(serviceId, { ...NO_FILTERS, paymentLinkId: LINK_A });
      const query = tx.select({ id: payments.id }).from(payments).where(where).toSQL();
      return sqlRows<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain ${inline(query.sql, query.params)}`)));
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("payments_link_idx");
  });
});

/** The statement with its parameters written in, for EXPLAIN (which takes no bind parameters here). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => `'${String(params[Number(index) - 1]).replace(/'/g, "''")}'`);
}
