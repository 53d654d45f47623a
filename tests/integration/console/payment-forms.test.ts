import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentRefunds } from "@/lib/db/schema";
import { findPayment } from "@/lib/db/payment-record";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf } from "../../support/console";
import { createMerchant } from "../../support/factories";
import { realEvent } from "../../support/real-events";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();

let merchantA: OnboardedMerchant;
let merchantB: OnboardedMerchant;
let serviceA: string;
let owner: { id: string; email: string };
let viewer: { id: string; email: string };

beforeAll(async () => {
  [merchantA, merchantB] = [await createMerchant(), await createMerchant()];
  serviceA = await serviceIdOf(merchantA);
  owner = await createConsoleUser([{ merchant: merchantA, role: "owner" }]);
  viewer = await createConsoleUser([{ merchant: merchantA, role: "viewer" }]);
});

async function postAs(userId: string, action: string, fields: Record<string, string>) {
  const session = await consoleSessionOf(userId);
  return postForm(
    gateway.baseUrl,
    `/en/console/actions/${action}`,
    { ...fields, formToken: session.formToken },
    { cookie: session.cookie },
  );
}

async function exportAs(userId: string, query: string) {
  const session = await consoleSessionOf(userId);
  return fetch(`${gateway.baseUrl}/en/console/payments/export?${query}`, {
    headers: { cookie: session.cookie },
    redirect: "manual",
  });
}

const refundsOf = async (paymentId: string) =>
  (await getDb()).select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
const auditOf = async (action: string, target: string) =>
  (await getDb())
    .select()
    .from(consoleAuditLog)
    .where(and(eq(consoleAuditLog.action, action), eq(consoleAuditLog.target, target)));

describe("the payment detail's forms (contract 13)", () => {
  it("refunds once when the same form is posted twice, with one audit entry naming the user", async () => {
    const { paymentId } = await realEvent(gateway.api, merchantA, "succeeded");
    const form = { paymentId, formKey: randomUUID(), amount: "0.4", reason: "damaged box" };
    const first = await postAs(owner.id, "payment-refund", form);
    const second = await postAs(owner.id, "payment-refund", form);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get("location")).toBe(`/en/console/payments/${paymentId}`);
    expect((await refundsOf(paymentId)).map((refund) => refund.amountMinor)).toEqual([40]);
    expect((await findPayment(await getDb(), paymentId))!.state).toBe("PARTIALLY_REFUNDED");
    const entries = await auditOf("payment_refunded", paymentId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userEmail: owner.email, serviceId: serviceA });
  });

  it("refuses an amount above the refundable beside the field, with nothing done and nothing audited", async () => {
    const { paymentId } = await realEvent(gateway.api, merchantA, "succeeded");
    const response = await postAs(owner.id, "payment-refund", {
      paymentId,
      formKey: randomUUID(),
      amount: "5",
      reason: "too much",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/en/console/payments/${paymentId}?confirm=refund`);
    expect(await refundsOf(paymentId)).toEqual([]);
    expect(await auditOf("payment_refunded", paymentId)).toEqual([]);
  });

  it("captures and releases reservations, each audited", async () => {
    const captured = await realEvent(gateway.api, merchantA, "pre_authorized");
    const released = await realEvent(gateway.api, merchantA, "pre_authorized");
    expect(
      (await postAs(owner.id, "payment-capture", { paymentId: captured.paymentId, formKey: randomUUID(), amount: "" }))
        .status,
    ).toBe(303);
    expect(
      (await postAs(owner.id, "payment-release", { paymentId: released.paymentId, formKey: randomUUID() })).status,
    ).toBe(303);
    const db = await getDb();
    expect((await findPayment(db, captured.paymentId))!.state).toBe("SUCCEEDED");
    expect((await findPayment(db, released.paymentId))!.state).toBe("CANCELED");
    expect(await auditOf("payment_captured", captured.paymentId)).toHaveLength(1);
    expect(await auditOf("payment_released", released.paymentId)).toHaveLength(1);
  });

  it("answers 404 for another merchant's payment, refunding nothing", async () => {
    const { paymentId } = await realEvent(gateway.api, merchantB, "succeeded");
    const response = await postAs(owner.id, "payment-refund", {
      paymentId,
      formKey: randomUUID(),
      amount: "",
      reason: "not mine",
    });
    expect(response.status).toBe(404);
    expect(await refundsOf(paymentId)).toEqual([]);
    expect(await auditOf("payment_refunded", paymentId)).toEqual([]);
  });
});

describe("Export CSV (contract 13)", () => {
  it("streams the session merchant's payments of the filters as an attachment, audited once per export", async () => {
    const mine = await realEvent(gateway.api, merchantA, "succeeded");
    const theirs = await realEvent(gateway.api, merchantB, "succeeded");
    const query = `status=SUCCEEDED&status=PARTIALLY_REFUNDED&q=${mine.actionId}`;
    const response = await exportAs(viewer.id, query);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^created,paymentId,actionId,amount,captured,refunded,net,currency,status/);
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual([mine.paymentId]);
    expect(lines.join("\n")).not.toContain(theirs.paymentId);
    const entries = (await getDb())
      .select()
      .from(consoleAuditLog)
      .where(and(eq(consoleAuditLog.action, "payments_exported"), eq(consoleAuditLog.userId, viewer.id)));
    expect(await entries).toHaveLength(1);
    expect((await entries)[0]!.target).toBe(query);
  });

  it("sends a visitor without a session to sign in, and refuses filters it cannot read", async () => {
    const anonymous = await fetch(`${gateway.baseUrl}/en/console/payments/export`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/en/console/sign-in");
    expect((await exportAs(viewer.id, "createdFrom=2026-02-30")).status).toBe(400);
    expect((await exportAs(viewer.id, "separator=tab")).status).toBe(400);
  });

  it("writes semicolons and decimal commas when asked (separator=semicolon), after a byte order mark", async () => {
    const mine = await realEvent(gateway.api, merchantA, "succeeded");
    const response = await exportAs(viewer.id, `q=${mine.actionId}&separator=semicolon`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^created;paymentId;actionId;amount;captured;refunded;net;currency;status/);
    expect(lines[1]!.split(";")[1]).toBe(mine.paymentId);
    expect(lines[1]).toMatch(/;"\d+,\d{2}";"\d+,\d{2}";"0,00";"\d+,\d{2}";DZD;SUCCEEDED;/);
  });
});
