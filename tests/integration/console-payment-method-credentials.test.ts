import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { settingsPage } from "@/app/[locale]/console/_pages/settings-page";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog, paymentMethodCatalog, redirectProviderAccounts } from "@/lib/db/schema";
import type { Locale } from "@/lib/i18n/routing";
import { setMethodCredentials, testMethodConnection } from "@/lib/payment-methods/method-credentials";
import { PAYMENT_METHODS } from "@/lib/payment-methods/registry/payment-method-registry";
import { catalogs } from "@/lib/i18n/catalogs";
import type { PaymentMethodCode } from "@/lib/payment-methods/codes/payment-method-codes";
import { SANDBOX_CHARGILY_ACCOUNT } from "@/lib/payment-methods/chargily/chargily-account";
import { SANDBOX_CLICTOPAY_ACCOUNT } from "@/lib/payment-methods/clictopay/clictopay-account";
import { SANDBOX_CMI_ACCOUNT } from "@/lib/payment-methods/cmi/cmi-account";
import { SANDBOX_SATIM_ACCOUNT } from "@/lib/payment-methods/satim/satim-account";
import { clictopayFaults } from "@/simulators/clictopay/clictopay-simulator";
import { satimFaults } from "@/simulators/satim/satim-simulator";
import { consoleSessionOf, createConsoleUser, postForm } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant } from "../support/factories";
import { serviceIdOf } from "../support/payments";
import { inProduction } from "../support/production-config";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
const SATIM = { terminalId: "E010900000", userName: "SANDBOX_MERCHANT", password: "sandbox-password" };
const CLICTOPAY = { userName: "SANDBOX_CTP_MERCHANT", password: "sandbox-ctp-password" };

afterEach(() => {
  satimFaults.mode = "none";
  clictopayFaults.mode = "none";
});

async function shop(countries = ["DZA", "TUN"]) {
  const merchant = await createMerchant({ countries });
  const serviceId = await serviceIdOf(merchant);
  const owner = await createConsoleUser([{ merchant, role: "owner" }]);
  const developer = await createConsoleUser([{ merchant, role: "developer" }]);
  return { merchant, serviceId, owner, developer };
}

/** Posts a Settings form as the user and renders the page the redirect lands on (its flash shown once). */
async function postAndRender(userId: string, action: string, fields: Record<string, string>, locale: Locale = "en") {
  const session = await consoleSessionOf(userId);
  const response = await postForm(
    gateway.baseUrl,
    `/${locale}/console/actions/${action}`,
    { ...fields, formToken: session.formToken },
    { cookie: session.cookie },
  );
  const html = response.status === 303 ? await renderConsolePage(settingsPage, { userId, locale, session }) : "";
  return { response, html, text: textOf(html) };
}

async function credentialAudits(serviceId: string) {
  const db = await getDb();
  return db
    .select({ email: consoleAuditLog.userEmail, target: consoleAuditLog.target, ip: consoleAuditLog.ip })
    .from(consoleAuditLog)
    .where(
      and(eq(consoleAuditLog.serviceId, serviceId), eq(consoleAuditLog.action, "payment_method_credentials_changed")),
    );
}

describe("console Settings, Payment methods (contract 13 and 15)", () => {
  it("draws a form per redirect method of the merchant's countries from its provider's declared fields", async () => {
    const { owner } = await shop(["DZA", "TUN"]);
    const html = await renderConsolePage(settingsPage, { userId: owner.id, locale: "en" });
    for (const [code, module] of Object.entries(PAYMENT_METHODS)) {
      if (!module.redirect) continue;
      const served = module.redirect.countries.some((country) => ["DZA", "TUN"].includes(country));
      expect(html.includes(`id="method-${code.toLowerCase()}"`), code).toBe(served);
      if (!served) continue;
      for (const field of module.redirect.credentialFields) {
        const input = new RegExp(
          `<input[^>]*id="method-${code.toLowerCase()}-${field.name}"[^>]*name="${field.name}"[^>]*`,
        ).exec(html)?.[0];
        expect(input, `${code} ${field.name}`).toBeDefined();
        expect(input!.includes('type="password"'), `${code} ${field.name} secret`).toBe(field.secret);
        // Every label the registry names exists in the three languages.
        for (const locale of ["en", "fr", "ar"] as const) {
          const labels = (
            catalogs[locale] as { console: { settings: { methods: { fields: Record<string, string> } } } }
          ).console.settings.methods.fields;
          expect(labels[field.labelKey], `${locale} ${field.labelKey}`).toBeTruthy();
        }
      }
    }
    expect(textOf(html)).toContain("Test connection");
    // Morocco's and Tunisia's methods are not offered to an Algerian merchant.
    const algerian = await shop(["DZA"]);
    expect(await renderConsolePage(settingsPage, { userId: algerian.owner.id, locale: "en" })).not.toContain(
      'id="method-clictopay"',
    );
  });

  it("saves SATIM's credentials as the CLI: sealed, audited (owner, IP), password never shown, tested", async () => {
    const { serviceId, owner } = await shop();
    const { response, html, text } = await postAndRender(owner.id, "payment-method-credentials", {
      method: "SATIM",
      ...SATIM,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/\/en\/console\/settings#method-satim$/);
    expect(text).toContain("Credentials saved. Connection works: the provider accepted the credentials.");
    expect(html).not.toContain(SATIM.password);
    // Non-secret fields as stored; the password only as set, with the time of the change.
    expect(html).toMatch(/id="method-satim-terminalId"[^>]*value="E010900000"/);
    expect(html).toMatch(/id="method-satim-password"(?![^>]*value=)[^>]*>/);
    expect(text).toMatch(/Set\. Leave empty to keep it/);
    expect(text).toMatch(/Last changed \w{3} \d{1,2}, \d{4}, .* GMT\+1\./);
    expect(await findStoredPlaintext([SATIM.password])).toEqual([]);
    expect(await credentialAudits(serviceId)).toEqual([{ email: owner.email, target: "SATIM", ip: expect.anything() }]);

    // A second save with the password left empty keeps the stored one.
    const again = await postAndRender(owner.id, "payment-method-credentials", {
      method: "SATIM",
      terminalId: "E010900000",
      userName: "SANDBOX_MERCHANT",
      password: "",
    });
    expect(again.text).toContain("Connection works");
    expect(await credentialAudits(serviceId)).toHaveLength(2);
  });

  it("refuses a field the provider won't take, named in the page's language, storing, echoing nothing", async () => {
    const { serviceId, owner } = await shop();
    const wrong = await postAndRender(
      owner.id,
      "payment-method-credentials",
      { method: "SATIM", terminalId: "E01 09", userName: "SANDBOX_MERCHANT", password: "typed-secret-1" },
      "fr",
    );
    expect(wrong.html).toMatch(/id="method-satim-terminalId"[^>]*aria-invalid="true"[^>]*value="E01 09"/);
    expect(wrong.text).toContain("Saisissez l’identifiant de terminal SATIM");
    expect(wrong.html).not.toContain("typed-secret-1");
    // With no password stored, an empty one is refused (the provider's rule), and nothing is enabled or audited.
    const empty = await postAndRender(
      owner.id,
      "payment-method-credentials",
      { method: "CLICTOPAY", userName: "someone", password: "" },
      "ar",
    );
    expect(empty.html).toMatch(/id="method-clictopay-password"[^>]*aria-invalid="true"/);
    expect(empty.text).toContain("املأ هذا الحقل");
    const db = await getDb();
    expect(
      await db.select().from(redirectProviderAccounts).where(eq(redirectProviderAccounts.serviceId, serviceId)),
    ).toEqual([]);
    expect(await credentialAudits(serviceId)).toEqual([]);
  });

  it("tests the connection by the real adapter on simulators: works, wrong credentials, provider down", async () => {
    const { owner, serviceId } = await shop();
    // The sandbox without stored credentials tests the simulator's merchant, as its payments would use it.
    expect((await postAndRender(owner.id, "payment-method-test", { method: "CLICTOPAY" })).text).toContain(
      "Connection works",
    );
    const wrong = await postAndRender(owner.id, "payment-method-credentials", {
      method: "CLICTOPAY",
      userName: CLICTOPAY.userName,
      password: "not-the-password",
    });
    expect(wrong.text).toContain("Credentials saved. The provider refused these credentials");
    expect((await postAndRender(owner.id, "payment-method-test", { method: "CLICTOPAY" })).text).toContain(
      "The provider refused these credentials",
    );
    clictopayFaults.mode = "down";
    const down = await postAndRender(owner.id, "payment-method-test", { method: "CLICTOPAY" }, "ar");
    expect(down.text).toContain("تعذّر الوصول إلى المزوّد حاليًا");
    clictopayFaults.mode = "none";
    satimFaults.mode = "down";
    expect(await testMethodConnection(await getDb(), { serviceId, code: "SATIM" })).toBe("unavailable");
  });

  it("is the owner's: a developer sees the state, no form, actions 403; another method code is 404", async () => {
    const { owner, developer } = await shop();
    const html = await renderConsolePage(settingsPage, { userId: developer.id, locale: "en" });
    expect(html).toContain('id="method-satim"');
    expect(html).not.toContain("payment-method-credentials");
    expect(textOf(html)).toContain("Only an owner can change them.");
    const session = await consoleSessionOf(developer.id);
    for (const action of ["payment-method-credentials", "payment-method-test"]) {
      const refused = await postForm(
        gateway.baseUrl,
        `/en/console/actions/${action}`,
        { method: "SATIM", ...SATIM, formToken: session.formToken },
        { cookie: session.cookie },
      );
      expect(refused.status, action).toBe(403);
    }
    const ownerSession = await consoleSessionOf(owner.id);
    const unknown = await postForm(
      gateway.baseUrl,
      "/en/console/actions/payment-method-test",
      { method: "WALLET_V2", formToken: ownerSession.formToken },
      { cookie: ownerSession.cookie },
    );
    expect(unknown.status).toBe(404);
  });

  it("in production enables a method only with its credentials: refused without them, enabled with them", async () => {
    const { merchant, serviceId } = await shop(["DZA"]);
    const db = await getDb();
    // As production onboarding leaves it: no SATIM until its credentials are set.
    await db
      .delete(paymentMethodCatalog)
      .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, "SATIM")));
    const catalogOf = async () =>
      (
        await db
          .select({ code: paymentMethodCatalog.code })
          .from(paymentMethodCatalog)
          .where(eq(paymentMethodCatalog.serviceId, serviceId))
      ).map((row) => row.code);
    expect(await catalogOf()).not.toContain("SATIM");
    await inProduction(async () => {
      expect(await testMethodConnection(db, { serviceId, code: "SATIM" })).toBe("not_configured");
      await expect(
        setMethodCredentials(db, {
          serviceId,
          code: "SATIM",
          settings: { terminalId: "E010900000", userName: "SHOP", password: "" },
          actor: { userId: null, email: "o@shop.example", ip: null },
        }),
      ).rejects.toMatchObject({
        errorName: "validation_error",
        details: [{ path: "password" }],
      });
    });
    expect(await catalogOf()).not.toContain("SATIM");
    // The same operation with every field enables it (the CLI's, by client id).
    await setMethodCredentials(db, {
      clientId: merchant.clientId,
      code: "SATIM",
      settings: SATIM,
      actor: { userId: null, email: "o@shop.example", ip: null },
    });
    expect(await catalogOf()).toContain("SATIM");
  });

  // Issues 43 and 44: each redirect card method, by the one operation the CLI (by client id) and the console's
  // Settings (by service) call.
  const PRODUCTION_METHODS: { code: PaymentMethodCode; country: string; credentials: Record<string, string> }[] = [
    { code: "SATIM", country: "DZA", credentials: { ...SANDBOX_SATIM_ACCOUNT } },
    { code: "CHARGILY", country: "DZA", credentials: { ...SANDBOX_CHARGILY_ACCOUNT } },
    { code: "CLICTOPAY", country: "TUN", credentials: { ...SANDBOX_CLICTOPAY_ACCOUNT } },
    { code: "CMI", country: "MAR", credentials: { ...SANDBOX_CMI_ACCOUNT } },
  ];
  for (const { code, country, credentials } of PRODUCTION_METHODS) {
    it(`in production refuses to enable ${code} without credentials, naming missing fields; stays off`, async () => {
      const { merchant, serviceId } = await shop([country]);
      const db = await getDb();
      await db
        .delete(paymentMethodCatalog)
        .where(and(eq(paymentMethodCatalog.serviceId, serviceId), eq(paymentMethodCatalog.code, code)));
      const enabled = async () =>
        (
          await db
            .select({ code: paymentMethodCatalog.code })
            .from(paymentMethodCatalog)
            .where(eq(paymentMethodCatalog.serviceId, serviceId))
        ).some((row) => row.code === code);
      const fields = PAYMENT_METHODS[code].redirect!.credentialFields.map((field) => field.name);
      const actor = { userId: null, email: "o@shop.example", ip: null };
      await inProduction(async () => {
        // Without stored credentials production has no account to fall back on (the sandbox has its
        // simulator's): a proceed is refused.
        expect(await PAYMENT_METHODS[code].redirect!.account(db, serviceId)).toBeNull();
        expect(await testMethodConnection(db, { serviceId, code })).toBe("not_configured");
        for (const merchantRef of [{ serviceId }, { clientId: merchant.clientId }]) {
          const empty = Object.fromEntries(fields.map((name) => [name, ""]));
          const refusal = await setMethodCredentials(db, { ...merchantRef, code, settings: empty, actor }).catch(
            (error: unknown) => error,
          );
          expect(refusal, code).toMatchObject({
            errorName: "validation_error",
            message: expect.stringMatching(new RegExp(`^${code} credentials refused: `)),
          });
          const named = (refusal as { details: { path: string; message: string }[] }).details;
          // Every field the provider needs is named, with what it must hold.
          expect(new Set(named.map((detail) => detail.path))).toEqual(new Set(fields));
          expect(named.every((detail) => detail.message.length > 0)).toBe(true);
          // One field missing is refused the same way, naming it.
          const [last] = fields.slice(-1);
          await expect(
            setMethodCredentials(db, { ...merchantRef, code, settings: { ...credentials, [last!]: "" }, actor }),
          ).rejects.toMatchObject({
            errorName: "validation_error",
            details: expect.arrayContaining([expect.objectContaining({ path: last })]),
          });
        }
        expect(await enabled()).toBe(false);
        expect(await PAYMENT_METHODS[code].redirect!.account(db, serviceId)).toBeNull();
      });
      expect(await credentialAudits(serviceId)).toEqual([]);
      const [stored] = await db
        .select()
        .from(redirectProviderAccounts)
        .where(and(eq(redirectProviderAccounts.serviceId, serviceId), eq(redirectProviderAccounts.methodCode, code)));
      expect(stored).toBeUndefined();
      // With every field the same operation enables it.
      await setMethodCredentials(db, { clientId: merchant.clientId, code, settings: credentials, actor });
      expect(await enabled()).toBe(true);
    });
  }
});
