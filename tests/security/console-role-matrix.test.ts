import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConsoleRole } from "@/lib/console/access/roles";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, consoleInvitations } from "@/lib/db/schema";
import { createInvitation } from "@/lib/console/access/invitations";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { randomUUID } from "node:crypto";
import { payWithNewCard, savedCardsOf } from "../support/cards";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf, uniqueEmail } from "../support/console";
import { createCustomerToken, createMerchant } from "../support/factories";
import { paymentRow } from "../support/payments";
import { realEvent, type RealEvent } from "../support/real-events";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
const ROLES: ConsoleRole[] = ["owner", "developer", "support", "viewer"];

let merchant: OnboardedMerchant;
let serviceId: string;
let event: RealEvent;
const users = {} as Record<ConsoleRole, { id: string; email: string }>;

/** A member to act on, fresh for each case (a removal takes it away). */
async function viewerToActOn() {
  return createConsoleUser([{ merchant, role: "viewer" }]);
}

/** An active link to deactivate, fresh for each case. */
async function linkToDeactivate() {
  const input = {
    title: "Matrix link",
    amount: 100,
    currency: "DZD" as const,
    countryCode: "DZA",
    captureMethod: "DIRECT" as const,
    reusable: true,
    locale: "en" as const,
  };
  return (await createPaymentLink(await getDb(), { serviceId, input })).id;
}

/** An open invitation to cancel, fresh for each case. */
async function invitationToCancel() {
  const email = uniqueEmail("to-cancel");
  const db = await getDb();
  await createInvitation(db, { serviceId, email, role: "viewer", actor: null });
  const [invitation] = await db
    .select({ id: consoleInvitations.id })
    .from(consoleInvitations)
    .where(eq(consoleInvitations.email, email));
  return invitation!.id;
}

type Fields = () => Promise<Record<string, string>>;
/**
 * Contract 13's table, written out here (not read from lib/console/access/roles.ts) so the test can
 * disagree with the code.
 */
const MATRIX: { action: string; allowed: ConsoleRole[]; fields: Fields }[] = [
  // First: their payments are made through the API with the client secret the roll rows below replace.
  {
    action: "payment-capture",
    allowed: ["owner", "support"],
    fields: async () => moneyForm("pre_authorized", { amount: "" }),
  },
  { action: "payment-release", allowed: ["owner", "support"], fields: async () => moneyForm("pre_authorized", {}) },
  {
    action: "payment-refund",
    allowed: ["owner", "support"],
    fields: async () => moneyForm("succeeded", { amount: "0.5", reason: "damaged" }),
  },
  { action: "customer-card-delete", allowed: ["owner", "support"], fields: savedCardForm },
  {
    action: "customer-deactivate",
    allowed: ["owner", "support"],
    fields: async () => ({ customerId: (await createCustomerToken(merchant)).customer.id }),
  },
  { action: "invite", allowed: ["owner"], fields: async () => ({ email: uniqueEmail("invited"), role: "viewer" }) },
  { action: "cancel-invitation", allowed: ["owner"], fields: async () => ({ invitation: await invitationToCancel() }) },
  { action: "reset-member-password", allowed: ["owner"], fields: async () => ({ member: (await viewerToActOn()).id }) },
  {
    action: "change-role",
    allowed: ["owner"],
    fields: async () => ({ member: (await viewerToActOn()).id, role: "support" }),
  },
  { action: "remove-member", allowed: ["owner"], fields: async () => ({ member: (await viewerToActOn()).id }) },
  { action: "require-two-step", allowed: ["owner"], fields: async () => ({ required: "" }) },
  { action: "roll-client-secret", allowed: ["owner", "developer"], fields: async () => ({}) },
  { action: "roll-webhook-secret", allowed: ["owner", "developer"], fields: async () => ({}) },
  {
    action: "webhook-url",
    allowed: ["owner", "developer"],
    fields: async () => ({ webhookUrl: "https://hooks.shop.example/in" }),
  },
  { action: "redeliver", allowed: ["owner", "developer"], fields: async () => ({ event: event.id }) },
  {
    action: "settings",
    allowed: ["owner", "developer"],
    fields: async () => ({
      name: merchant.name,
      redirectUrl: "https://shop.example/back",
      origins: "https://shop.example",
    }),
  },
  { action: "time-zone", allowed: ["owner"], fields: async () => ({ timeZone: "Africa/Tunis" }) },
  {
    action: "terms",
    allowed: ["owner", "developer"],
    fields: async () => ({ termsUrl: "https://shop.example/terms" }),
  },
  {
    action: "payment-method-credentials",
    allowed: ["owner"],
    fields: async () => ({
      method: "SATIM",
      terminalId: "E010900000",
      userName: "SANDBOX_MERCHANT",
      password: "sandbox-password",
    }),
  },
  { action: "payment-method-test", allowed: ["owner"], fields: async () => ({ method: "SATIM" }) },
  {
    action: "create-payment-link",
    allowed: ["owner", "developer", "support"],
    fields: async () => ({
      title: "Matrix link",
      amount: "100",
      currency: "DZD",
      countryCode: "DZA",
      captureMethod: "DIRECT",
      reusable: "on",
      locale: "en",
    }),
  },
  {
    action: "deactivate-payment-link",
    allowed: ["owner", "developer", "support"],
    fields: async () => ({ link: await linkToDeactivate() }),
  },
  {
    action: "change-password",
    allowed: ROLES,
    fields: async () => ({ currentPassword: "not my password", newPassword: "a long new password" }),
  },
  { action: "two-step-start", allowed: ROLES, fields: async () => ({}) },
  { action: "two-step-confirm", allowed: ROLES, fields: async () => ({ code: "000000" }) },
  { action: "two-step-off", allowed: ROLES, fields: async () => ({ password: "not my password" }) },
  { action: "switch-merchant", allowed: ROLES, fields: async () => ({ merchant: serviceId }) },
  { action: "sign-out-everywhere", allowed: ROLES, fields: async () => ({}) },
  { action: "sign-out", allowed: ROLES, fields: async () => ({}) },
];

/** A fresh real payment of the merchant in `outcome`, as the detail page's confirmation form posts it. */
async function moneyForm(outcome: "pre_authorized" | "succeeded", values: Record<string, string>) {
  const { paymentId } = await realEvent(gateway.api, merchant, outcome);
  return { paymentId, formKey: randomUUID(), ...values };
}

/** A card a buyer saved while paying, as the customer page's "Delete" posts it. */
async function savedCardForm() {
  const { paymentId } = await payWithNewCard(gateway.api, merchant, { save: true });
  const customerId = (await paymentRow(paymentId))!.customerId;
  const [card] = await savedCardsOf(customerId);
  return { customerId, cardId: card!.id };
}

const NEEDED_ROLES: Record<string, string> = {
  owner: "Owner",
  "owner,developer": "Owner or Developer",
  "owner,developer,support": "Owner or Developer or Support",
  "owner,support": "Owner or Support",
};

beforeAll(async () => {
  merchant = await createMerchant();
  serviceId = await serviceIdOf(merchant);
  event = await realEvent(gateway.api, merchant);
  for (const role of ROLES) users[role] = await createConsoleUser([{ merchant, role }]);
});

async function post(role: ConsoleRole, action: string, fields: Record<string, string>) {
  const session = await consoleSessionOf(users[role].id);
  return postForm(
    gateway.baseUrl,
    `/en/console/actions/${action}`,
    { ...fields, formToken: session.formToken },
    { cookie: session.cookie },
  );
}

describe("console role matrix (contract 13): every action as every role", () => {
  const cases = MATRIX.flatMap((row) =>
    ROLES.map((role) => ({ ...row, role, expected: row.allowed.includes(role) ? 303 : 403 })),
  );

  it.each(cases)("$action as $role answers $expected", async ({ action, role, fields, expected, allowed }) => {
    const before = await auditCount();
    const response = await post(role, action, await fields());
    expect(response.status).toBe(expected);
    if (expected === 403) {
      const page = await response.text();
      expect(page).toContain("Your role cannot do this");
      expect(page).toContain(`This needs the role ${NEEDED_ROLES[allowed.join(",")]}`);
      expect(await auditCount()).toBe(before); // nothing was done
    } else {
      expect(response.headers.get("location")).toMatch(/^\/en\/console/);
    }
  });

  it("has the size the note reports", () => {
    expect(cases).toHaveLength(29 * 4);
  });
});

describe("console isolation: a stranger (an owner of another merchant) naming this merchant's objects", () => {
  let stranger: { id: string };
  beforeAll(async () => {
    stranger = await createConsoleUser([{ merchant: await createMerchant(), role: "owner" }]);
  });
  const strangerCases: { action: string; fields: Fields }[] = [
    { action: "change-role", fields: async () => ({ member: (await viewerToActOn()).id, role: "owner" }) },
    { action: "remove-member", fields: async () => ({ member: (await viewerToActOn()).id }) },
    { action: "redeliver", fields: async () => ({ event: event.id }) },
    { action: "deactivate-payment-link", fields: async () => ({ link: await linkToDeactivate() }) },
    { action: "switch-merchant", fields: async () => ({ merchant: serviceId }) },
  ];

  it.each(strangerCases)("$action answers 404 and changes nothing", async ({ action, fields }) => {
    const session = await consoleSessionOf(stranger.id);
    const before = await auditCount();
    const response = await postForm(
      gateway.baseUrl,
      `/en/console/actions/${action}`,
      { ...(await fields()), formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Not found");
    expect(await auditCount()).toBe(before);
  });

  it("sends a visitor without a session to sign in, acting on nothing", async () => {
    const response = await postForm(gateway.baseUrl, "/en/console/actions/roll-client-secret", {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/console/sign-in");
  });
});

async function auditCount(): Promise<number> {
  const db = await getDb();
  return (
    await db
      .select({ id: consoleAuditLog.id })
      .from(consoleAuditLog)
      .where(and(eq(consoleAuditLog.serviceId, serviceId)))
  ).length;
}
