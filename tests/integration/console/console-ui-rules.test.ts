import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { deliveryStatusKey } from "@/components/console/payment-labels";
import { CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { refundFromConsole } from "@/lib/console/payments/console-money-operations";
import { createInvitation, findOpenInvitation } from "@/lib/console/access/invitations";
import { openConsoleSession } from "@/lib/console/web/open-console-session";
import { consoleRefusedResponse } from "@/lib/console/web/console-responses";
import { pageContentSecurityPolicy } from "@/lib/hosted/page-headers";
import { consolePageTitle } from "@/lib/console/web/console-page";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentRefunds, services } from "@/lib/db/schema";
import { serviceColumns } from "@/lib/auth/service-columns";
import type { ServiceContext } from "@/lib/auth/principal";
import type { Locale } from "@/lib/i18n/routing";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { NEGATIVE_AMOUNT } from "@/lib/money/typed-amount";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { paymentLinkIdOfActionId, paymentLinkTitles } from "@/lib/payment-links/link-titles";
import { createPaymentLinkBody } from "@/lib/payment-links/payment-link.schema";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf, uniqueEmail } from "../../support/console";
import { storedPayment } from "../../support/console-payments";
import { createMerchant } from "../../support/factories";
import { realEvent } from "../../support/real-events";
import { useTestGateway } from "../../support/test-gateway";

// Issue 42 (items 8, 9, 12): the console's rules behind its pages, in every language.

const gateway = useTestGateway();

let merchant: OnboardedMerchant;
let serviceId: string;
let owner: { id: string; email: string };

beforeAll(async () => {
  merchant = await createMerchant();
  serviceId = await serviceIdOf(merchant);
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
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

/** A signed-in page as the console lane renders it: its title and its body's HTML. */
async function renderPage(
  userId: string,
  key: string,
  locale: Locale,
  params: Record<string, string> = {},
  query: Record<string, string> = {},
) {
  const page = CONSOLE_LANE_PAGES[key]!;
  if ("signedOut" in page) throw new Error(`${key}: a page before sign-in`);
  const { cookie } = await consoleSessionOf(userId);
  const opening = await openConsoleSession(await getDb(), {
    locale,
    cookieHeader: cookie,
    capability: page.capability,
  });
  if (opening.kind !== "open") throw new Error(`not open: ${opening.location}`);
  const element = await page.render(opening.page, { params, query });
  return { title: consolePageTitle(page, locale), html: renderToStaticMarkup(element!) };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("cancelling an invitation (owners, audited)", () => {
  it("makes the link stop working at once and records who cancelled whom", async () => {
    const email = uniqueEmail("invitee");
    const { token } = await createInvitation(await getDb(), { serviceId, email, role: "support", actor: null });
    const { html } = await renderPage(owner.id, "team", "en");
    const invitationId = /name="invitation" value="([0-9a-f-]{36})"/.exec(html)![1]!;
    expect(text(html)).toContain("Cancel invitation");

    const answer = await postAs(owner.id, "cancel-invitation", { invitation: invitationId });
    expect([answer.status, answer.headers.get("location")]).toEqual([303, "/en/console/team"]);
    expect(await findOpenInvitation(await getDb(), token)).toBeNull();
    const entries = await (
      await getDb()
    )
      .select()
      .from(consoleAuditLog)
      .where(and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "invitation_canceled")));
    expect(entries).toMatchObject([{ userEmail: owner.email, target: `${email} (support)` }]);
    // Cancelled once: again, it is not found.
    expect((await postAs(owner.id, "cancel-invitation", { invitation: invitationId })).status).toBe(404);
  });

  it("is refused to another merchant's owner (404) and to a member who is not an owner (403)", async () => {
    const { token } = await createInvitation(await getDb(), {
      serviceId,
      email: uniqueEmail(),
      role: "viewer",
      actor: null,
    });
    const { html } = await renderPage(owner.id, "team", "en");
    const ids = [...html.matchAll(/name="invitation" value="([0-9a-f-]{36})"/g)].map((match) => match[1]!);
    const stranger = await createConsoleUser([{ merchant: await createMerchant(), role: "owner" }]);
    const developer = await createConsoleUser([{ merchant, role: "developer" }]);
    expect((await postAs(stranger.id, "cancel-invitation", { invitation: ids.at(-1)! })).status).toBe(404);
    expect((await postAs(developer.id, "cancel-invitation", { invitation: ids.at(-1)! })).status).toBe(403);
    expect((await postAs(owner.id, "cancel-invitation", { invitation: "not-an-id" })).status).toBe(404);
    expect(await findOpenInvitation(await getDb(), token)).not.toBeNull();
  });
});

describe("amounts typed in console forms", () => {
  const actor = async () => {
    const [service] = await (await getDb()).select(serviceColumns).from(services).where(eq(services.id, serviceId));
    return { service: service as ServiceContext, userEmail: owner.email };
  };

  it("take the decimal comma, as the payment link page does; refuse a negative amount with its message", async () => {
    const { paymentId } = await realEvent(gateway.api, merchant, "succeeded");
    const db = await getDb();
    await expect(
      refundFromConsole(db, await actor(), { paymentId, formKey: randomUUID(), amount: "-0,25", reason: "x" }),
    ).rejects.toMatchObject({
      errorName: "validation_error",
      details: [{ path: "amount", message: NEGATIVE_AMOUNT }],
    });
    const form = { paymentId, formKey: randomUUID(), amount: "0,25", reason: "broken" };
    const answer = await postAs(owner.id, "payment-refund", form);
    expect(answer.status).toBe(303);
    expect(
      (await db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId))).map(
        (refund) => refund.amountMinor,
      ),
    ).toEqual([25]);
  });

  it("filter the payments list with a decimal comma, and a negative bound is its own problem", () => {
    const parsed = parsePaymentListQuery({ currency: "DZD", amountFrom: "10,5", amountTo: "-3" });
    expect(parsed).toEqual({ ok: false, problems: [{ field: "amountTo", message: NEGATIVE_AMOUNT }] });
    const fine = parsePaymentListQuery({ currency: "DZD", amountFrom: "10,5" });
    expect(fine.ok && fine.query.filters.amountFrom).toEqual([{ exponent: 2, currencies: ["DZD"], minor: 1050 }]);
  });
});

describe("pages in the reader's language", () => {
  it("title every signed-in page in its language", () => {
    for (const [key, page] of Object.entries(CONSOLE_LANE_PAGES)) {
      if ("signedOut" in page) continue;
      expect(typeof page.title, key).toBe("object");
      const [en, fr, ar] = (["en", "fr", "ar"] as const).map((locale) => consolePageTitle(page, locale));
      expect(fr, key).not.toBe(en);
      expect(ar, key).not.toMatch(/[A-Za-z]/);
    }
  });

  it("name the refund's currency and maximum, the customer's phone once, a link's payment by its title", async () => {
    const phone = `+2135${String(Date.now()).slice(-8)}`;
    const link = await createPaymentLink(await getDb(), {
      serviceId,
      input: createPaymentLinkBody.parse({ title: "Sac en cuir", amount: 25, currency: "DZD", countryCode: "DZA" }),
    });
    const actionId = `${link.id}:01JABCDEFGHJKMNPQRSTVWXYZ0:2500:${phone}`;
    const payment = await storedPayment(serviceId, {
      state: "SUCCEEDED",
      amountMinor: 2500,
      phone,
      name: phone,
      actionId,
    });
    const { html, title } = await renderPage(
      owner.id,
      "payments/[paymentId]",
      "ar",
      { paymentId: payment.id },
      { confirm: "refund" },
    );
    expect(title).toBe("الدفعة");
    const page = text(html);
    expect(page).toContain("بعملة DZD، بحدّ أقصى");
    // Once as the customer (named by it), once inside the link's actionId: never a second time beside the name.
    expect(page.split(phone).length - 1).toBe(1 + page.split(actionId).length - 1);
    expect(page).toContain("Sac en cuir");

    const list = await renderPage(owner.id, "payments", "fr");
    expect(list.title).toBe("Paiements");
    expect(text(list.html)).toContain("Lien de paiement : Sac en cuir");
    expect(paymentLinkIdOfActionId(actionId)).toBe(link.id);
    const otherMerchant = await serviceIdOf(await createMerchant());
    expect(await paymentLinkTitles(await getDb(), otherMerchant, [actionId])).toEqual(new Map());
  });

  it("ask before rolling a secret: the confirmation rolls nothing, the confirmed post does", async () => {
    const { html } = await renderPage(owner.id, "developers", "fr", {}, { confirm: "client-secret" });
    expect(text(html)).toContain("Renouveler le secret client ?");
    expect(html).toContain('action="/fr/console/actions/roll-client-secret"');
    expect(html).not.toContain("new-secret");
    const rolled = await postAs(owner.id, "roll-client-secret", {});
    expect(rolled.status).toBe(303);
  });

  it("say an event that had no webhook URL has none, rather than that it failed", () => {
    expect(deliveryStatusKey({ status: "failed", attempts: 0 })).toBe("status.noWebhookUrl");
    expect(deliveryStatusKey({ status: "failed", attempts: 5 })).toBe("status.failed");
    expect(deliveryStatusKey({ status: "pending", attempts: 0 })).toBe("status.pending");
  });

  it("word the audit log's targets and show the refusal page in the console's style, in Arabic", async () => {
    const { html } = await renderPage(owner.id, "audit-log", "ar");
    expect(text(html)).toContain("كلمة المرور");
    const refused = consoleRefusedResponse("forbidden", "ar", "team.manage");
    const body = await refused.text();
    expect(refused.status).toBe(403);
    expect(body).toMatch(/<html lang="ar" dir="rtl">/);
    expect(body).toContain("لوحة");
    const style = /<style>([^<]+)<\/style>/.exec(body)![1]!;
    const { createHash } = await import("node:crypto");
    expect(refused.headers.get("content-security-policy")).toContain(
      `style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`,
    );
    expect(refused.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    // Served under proxy.ts, the page's policy is the proxy's: it admits the same stylesheet.
    expect(pageContentSecurityPolicy("/ar/console/refused", "n0nce", false)).toContain(
      `'sha256-${createHash("sha256").update(style).digest("base64")}'`,
    );
  });
});
