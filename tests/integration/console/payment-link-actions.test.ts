import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { takeFlash } from "@/lib/console/web/console-flash";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentLinks } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { getPaymentLink } from "@/lib/payment-links/get-payment-link";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf } from "../../support/console";
import { createMerchant } from "../../support/factories";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();

let merchant: OnboardedMerchant;
let serviceId: string;
let owner: { id: string; email: string };

beforeAll(async () => {
  merchant = await createMerchant();
  serviceId = await serviceIdOf(merchant);
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
});

async function post(userId: string, action: string, fields: Record<string, string>) {
  const session = await consoleSessionOf(userId);
  const response = await postForm(
    gateway.baseUrl,
    `/en/console/actions/${action}`,
    { ...fields, formToken: session.formToken },
    { cookie: session.cookie },
  );
  return { response, flash: () => getDb().then((db) => takeFlash(db, session.sessionId)) };
}

async function linksOf(id: string) {
  const db = await getDb();
  return db.select().from(paymentLinks).where(eq(paymentLinks.serviceId, id));
}

async function auditOf(action: "payment_link_created" | "payment_link_deactivated") {
  const db = await getDb();
  return db
    .select()
    .from(consoleAuditLog)
    .where(and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, action)));
}

const FIXED = {
  title: "Handmade bag",
  description: "Leather, brown",
  amount: "2500.50",
  currency: "DZD",
  countryCode: "DZA",
  captureMethod: "DIRECT",
  reusable: "on",
  locale: "ar",
};

describe("console: create a payment link (contract 13, 14)", () => {
  it("creates the link the form describes and commits its audit entry with it", async () => {
    const before = await linksOf(serviceId);
    const { response, flash } = await post(owner.id, "create-payment-link", FIXED);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/console/payment-links");
    expect(await flash()).toEqual({ kind: "notice", key: "linkCreated" });
    const created = (await linksOf(serviceId)).filter((link) => !before.some((old) => old.id === link.id));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      title: "Handmade bag",
      description: "Leather, brown",
      amountMinor: 250050,
      currency: "DZD",
      country: "DZA",
      reusable: true,
      locale: "ar",
    });
    const entries = (await auditOf("payment_link_created")).filter((entry) => entry.target === created[0]!.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userId: owner.id, userEmail: owner.email });
  });

  it("reads an unchecked box as single-use, a zoneless expiry in the first country's (Africa/Algiers)", async () => {
    const { response } = await post(owner.id, "create-payment-link", {
      ...FIXED,
      title: "Single",
      reusable: "",
      expiresAt: "2099-01-31T18:00",
    });
    expect(response.status).toBe(303);
    const link = (await linksOf(serviceId)).find((row) => row.title === "Single")!;
    expect(link.reusable).toBe(false);
    // 18:00 in Algiers (UTC+1) is 17:00 UTC.
    expect(link.expiresAt?.toISOString()).toBe("2099-01-31T17:00:00.000Z");
  });

  it.each([
    [{ title: "" }, "title", "must not be empty"],
    [{ amount: "12.345" }, "amount", "decimal"],
    [{ amount: "", minAmount: "500", maxAmount: "100" }, "maxAmount", "must be at least minAmount"],
    [{ minAmount: "100" }, "minAmount", "must be omitted when amount is given"],
    [{ amount: "abc" }, "amount", "must be a number"],
    [{ countryCode: "FRA" }, "countryCode", "is not enabled for this service"],
    [{ expiresAt: "2020-01-01T00:00" }, "expiresAt", "must be in the future"],
  ])("refuses %j beside the field %s, keeping what was typed, writing nothing", async (change, field, message) => {
    const links = (await linksOf(serviceId)).length;
    const entries = (await auditOf("payment_link_created")).length;
    const typed = { ...FIXED, ...change };
    const { response, flash } = await post(owner.id, "create-payment-link", typed);
    expect(response.status).toBe(303);
    const shown = await flash();
    expect(shown).toMatchObject({
      kind: "error",
      form: "create-payment-link",
      field,
      values: { title: typed.title, amount: typed.amount },
    });
    expect(shown?.kind === "error" ? shown.detail : "").toContain(message);
    expect((await linksOf(serviceId)).length).toBe(links);
    expect((await auditOf("payment_link_created")).length).toBe(entries);
  });
});

describe("console: deactivate a payment link", () => {
  it("closes the link and commits one audit entry with the change; again changes and records nothing", async () => {
    const link = await createPaymentLink(await getDb(), {
      serviceId,
      input: {
        title: "To close",
        amount: 100,
        currency: "DZD",
        countryCode: "DZA",
        captureMethod: "DIRECT",
        reusable: true,
        locale: "en",
      },
    });
    const first = await post(owner.id, "deactivate-payment-link", { link: link.id });
    expect(first.response.status).toBe(303);
    expect(await first.flash()).toEqual({ kind: "notice", key: "linkDeactivated" });
    expect((await getPaymentLink(await getDb(), { serviceId, id: link.id })).active).toBe(false);
    expect((await auditOf("payment_link_deactivated")).filter((entry) => entry.target === link.id)).toHaveLength(1);
    const again = await post(owner.id, "deactivate-payment-link", { link: link.id });
    expect(again.response.status).toBe(303);
    expect((await auditOf("payment_link_deactivated")).filter((entry) => entry.target === link.id)).toHaveLength(1);
  });

  it("answers 404 for another merchant's link (and a malformed id), leaving it active and unrecorded", async () => {
    const other = await createMerchant();
    const otherServiceId = await serviceIdOf(other);
    const theirs = await createPaymentLink(await getDb(), {
      serviceId: otherServiceId,
      input: {
        title: "Theirs",
        amount: 100,
        currency: "DZD",
        countryCode: "DZA",
        captureMethod: "DIRECT",
        reusable: true,
        locale: "en",
      },
    });
    for (const id of [theirs.id, "plink_nope"]) {
      const { response } = await post(owner.id, "deactivate-payment-link", { link: id });
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Not found");
    }
    expect((await getPaymentLink(await getDb(), { serviceId: otherServiceId, id: theirs.id })).active).toBe(true);
    expect((await auditOf("payment_link_deactivated")).filter((entry) => entry.target === theirs.id)).toHaveLength(0);
  });
});

describe("console: the audit entry and the change commit together", () => {
  it("writes neither the link nor the entry when the entry cannot be written", async () => {
    const db = await getDb();
    const links = (await linksOf(serviceId)).length;
    // An entry without the email the log requires: it fails inside the link's transaction.
    const actor = { userId: owner.id, email: null as unknown as string, ip: null };
    await expect(
      createPaymentLink(db, {
        serviceId,
        actor,
        input: {
          title: "Half",
          amount: 100,
          currency: "DZD",
          countryCode: "DZA",
          captureMethod: "DIRECT",
          reusable: true,
          locale: "en",
        },
      }),
    ).rejects.toThrow();
    expect((await linksOf(serviceId)).length).toBe(links);
  });
});
