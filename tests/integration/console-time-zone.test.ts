import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLogPage } from "@/app/[locale]/console/_pages/audit-log-page";
import { paymentPage } from "@/app/[locale]/console/_pages/payment-page";
import { paymentsPage } from "@/app/[locale]/console/_pages/payments-page";
import { settingsPage } from "@/app/[locale]/console/_pages/settings-page";
import { recordAuditEntry } from "@/lib/audit-log/record-audit-entry";
import { authenticateConsole } from "@/lib/console/access/console-principal";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, services } from "@/lib/db/schema";
import type { Locale } from "@/lib/i18n/routing";
import { consoleSessionOf, createConsoleUser, postForm } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { storedPayment } from "../support/console-payments";
import { createMerchant } from "../support/factories";
import { serviceIdOf } from "../support/payments";
import { runScript } from "../support/run-script";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
const CREATED = new Date("2026-01-15T23:30:00Z");
// What a reader sees: ICU's narrow no-break spaces and right-to-left marks aside.
const seen = (html: string) => textOf(html).replace(/[\u200f\u061c]/g, "");

async function merchantWithPayment(countries: string[]) {
  const merchant = await createMerchant({ countries });
  const serviceId = await serviceIdOf(merchant);
  const owner = await createConsoleUser([{ merchant, role: "owner" }]);
  const developer = await createConsoleUser([{ merchant, role: "developer" }]);
  const payment = await storedPayment(serviceId, { createdAt: CREATED });
  return { merchant, serviceId, owner, developer, payment };
}

async function postTimeZone(
  userId: string,
  timeZone: string,
  locale: Locale = "en",
  session?: Awaited<ReturnType<typeof consoleSessionOf>>,
) {
  session ??= await consoleSessionOf(userId);
  return postForm(
    gateway.baseUrl,
    `/${locale}/console/actions/time-zone`,
    { timeZone, formToken: session.formToken },
    { cookie: session.cookie },
  );
}

describe("the merchant's time zone in the console", () => {
  it("is its first country's by default: Algeria, Morocco, Tunisia", async () => {
    const db = await getDb();
    for (const [countries, zone] of [
      [["DZA", "MAR"], "Africa/Algiers"],
      [["MAR", "TUN"], "Africa/Casablanca"],
      [["TUN"], "Africa/Tunis"],
    ] as const) {
      const merchant = await createMerchant({ countries: [...countries] });
      const owner = await createConsoleUser([{ merchant, role: "owner" }]);
      const principal = await authenticateConsole(db, { sessionToken: (await consoleSessionOf(owner.id)).token });
      expect(principal?.membership?.timeZone, countries.join()).toBe(zone);
    }
  });

  it("shows every time in the named zone, in en, fr and ar: the list, a payment, the audit log", async () => {
    const { owner, payment, serviceId } = await merchantWithPayment(["DZA"]);
    await recordAuditEntry(await getDb(), {
      actor: { userId: owner.id, email: owner.email, ip: null },
      serviceId,
      action: "settings_changed",
      target: "name",
    });
    // 23:30 UTC is 00:30 the next day in Algiers.
    const expected = {
      en: "Jan 16, 2026, 12:30:00 AM GMT+1",
      fr: "16 janv. 2026, 00:30:00 UTC+1",
      ar: "16/01/2026، 12:30:00 ص غرينتش+1",
    };
    for (const locale of ["en", "fr", "ar"] as const) {
      expect(seen(await renderConsolePage(paymentsPage, { userId: owner.id, locale })), locale).toContain(
        expected[locale],
      );
      expect(
        seen(await renderConsolePage(paymentPage, { userId: owner.id, locale, params: { paymentId: payment.id } })),
        locale,
      ).toContain(expected[locale]);
    }
    expect(seen(await renderConsolePage(paymentsPage, { userId: owner.id, locale: "en" }))).not.toContain("1/15/26");
    const auditHtml = seen(await renderConsolePage(auditLogPage, { userId: owner.id, locale: "fr" }));
    expect(auditHtml).toMatch(/\d{1,2} [a-zéû.]+ \d{4}, \d{2}:\d{2}:\d{2} UTC\+1/);
  });

  it("is set by an owner in Settings (audited) for all pages; a bad zone refused at the field, localized", async () => {
    const { serviceId, owner, developer } = await merchantWithPayment(["DZA", "TUN"]);
    const db = await getDb();

    const session = await consoleSessionOf(owner.id);
    const refused = await postTimeZone(owner.id, "Mars/Olympus", "fr", session);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/fr/console/settings");
    const form = await renderConsolePage(settingsPage, { userId: owner.id, locale: "fr", session });
    // The message beside the field, tied to it, and what was typed kept.
    expect(form).toMatch(
      /<input[^>]*id="time-zone"[^>]*aria-invalid="true"[^>]*aria-describedby="time-zone-error time-zone-hint"/,
    );
    expect(form).toMatch(
      /<p id="time-zone-error" role="alert"[^>]*>Ce n&#x27;est pas un fuseau horaire : indiquez un nom IANA/,
    );
    expect(form).toMatch(/<input[^>]*id="time-zone"[^>]*value="Mars\/Olympus"/);
    expect(
      (await db.select({ timeZone: services.timeZone }).from(services).where(eq(services.id, serviceId)))[0]!.timeZone,
    ).toBeNull();

    const arabic = await renderConsolePage(settingsPage, { userId: owner.id, locale: "ar" });
    expect(arabic).toMatch(/<input[^>]*id="time-zone"[^>]*dir="ltr"[^>]*value="Africa\/Algiers"/);

    const saved = await postTimeZone(owner.id, "asia/tokyo", "en", session);
    expect(saved.status).toBe(303);
    expect(
      (await db.select({ timeZone: services.timeZone }).from(services).where(eq(services.id, serviceId)))[0]!.timeZone,
    ).toBe("Asia/Tokyo");
    const entries = await db
      .select()
      .from(consoleAuditLog)
      .where(and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "settings_changed")));
    expect(entries.map((entry) => [entry.userId, entry.target])).toEqual([[owner.id, "timeZone Asia/Tokyo"]]);
    expect(seen(await renderConsolePage(settingsPage, { userId: owner.id, locale: "en", session }))).toContain(
      "Time zone saved.",
    );
    expect(seen(await renderConsolePage(paymentsPage, { userId: owner.id, locale: "en" }))).toContain(
      "Jan 16, 2026, 8:30:00 AM GMT+9",
    );

    // A developer sees the zone, cannot change it.
    const developerView = seen(await renderConsolePage(settingsPage, { userId: developer.id, locale: "en" }));
    expect(developerView).toContain("Times are shown in Asia/Tokyo. Only an owner can change it.");
    expect((await postTimeZone(developer.id, "UTC")).status).toBe(403);

    // Left empty: the first country's again.
    await postTimeZone(owner.id, "");
    expect(seen(await renderConsolePage(paymentsPage, { userId: owner.id, locale: "en" }))).toContain(
      "Jan 16, 2026, 12:30:00 AM GMT+1",
    );
  });

  it("is set with npm run merchant -- update --time-zone, which refuses a bogus zone naming the flag", async () => {
    const { merchant, serviceId } = await merchantWithPayment(["MAR"]);
    const bogus = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--time-zone",
      "Africa/Atlantis",
      "--json",
    ]);
    expect(bogus.code).not.toBe(0);
    expect(bogus.stderr).toContain("--time-zone");
    expect(bogus.stderr).toContain("must be an IANA time zone name");
    const set = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--time-zone",
      "Africa/Tunis",
      "--json",
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ clientId: merchant.clientId, timeZone: "Africa/Tunis" });
    const back = await runScript("scripts/merchant.ts", [
      "update",
      "--client-id",
      merchant.clientId,
      "--time-zone",
      "default",
      "--json",
    ]);
    expect(JSON.parse(back.stdout)).toMatchObject({ timeZone: "Africa/Casablanca" });
    expect(
      (
        await (await getDb()).select({ timeZone: services.timeZone }).from(services).where(eq(services.id, serviceId))
      )[0]!.timeZone,
    ).toBeNull();
  }, 60_000);
});
