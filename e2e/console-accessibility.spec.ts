import type { Page } from "@playwright/test";
import { capture, expectNoSeriousViolations } from "./support/accessibility";
import { BASE_URL, SANDBOX_OTP } from "./support/env";
import { authenticatorCode, CONSOLE_PASSWORD, consoleMessagesFor, newEmail, rollSecret } from "./support/console";
import { expect, submitCode, test } from "./support/fixtures";
import { startWalletPayment } from "./support/gateway";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";
import type { PageLocale } from "./support/messages";

const LOCALES: PageLocale[] = ["en", "fr", "ar"];

async function check(page: Page, name: string) {
  await expectNoSeriousViolations(page, name);
  await capture(page, name);
}

test.describe("every console page in every language: axe finds nothing serious, a 390 px screenshot is kept", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const locale of LOCALES) {
    test(`console pages in ${locale}`, async ({ page, browser }) => {
      // One walk of 17 pages, signing up, paying and refunding on the way, with axe on each:
      // about a minute on a quiet machine, nearly two when the 2 cores are shared.
      test.setTimeout(240_000);
      const t = consoleMessagesFor(locale);
      const email = newEmail(`a11y-${locale}`);

      await page.goto(`/${locale}/console/sign-in`);
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await check(page, `console-sign-in-${locale}`);

      await page.goto(`/${locale}/console/sign-up`);
      await check(page, `console-sign-up-${locale}`);
      await page.getByLabel(t("signUp.name"), { exact: true }).fill("Nadia");
      await page.getByLabel(t("signUp.email"), { exact: true }).fill(email);
      await page.getByLabel(t("signUp.password"), { exact: true }).fill(CONSOLE_PASSWORD);
      await page.getByLabel(t("signUp.businessName"), { exact: true }).fill(`Boutique ${locale}`);
      await page.getByRole("button", { name: t("signUp.submit") }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("home.title", { name: "Nadia" }) })).toBeVisible();
      await check(page, `console-home-${locale}`);

      await page.goto(`/${locale}/console/developers`);
      await expect(page.getByRole("heading", { level: 1, name: t("developers.title") })).toBeVisible();
      await rollSecret(page, "client", locale);
      await check(page, `console-developers-${locale}`);

      // An event of this merchant, paid with the keys the page shows, for the event page.
      const clientId = await page.getByLabel(t("developers.clientId")).inputValue();
      const shop = {
        clientId,
        clientSecret: await page.getByLabel(t("developers.newSecret")).inputValue(),
        service: clientId.split(".")[1]!,
      };
      const { payUrl } = await startWalletPayment(shop as OnboardedMerchant);
      const buyer = await browser.newPage();
      await buyer.goto(payUrl);
      await submitCode(buyer, SANDBOX_OTP);
      await expect(buyer).toHaveURL(/\/pay\/return\//);
      await buyer.close();
      await page.goto(`/${locale}/console/developers`);
      await page
        .getByRole("region", { name: t("developers.eventsTitle") })
        .getByRole("link")
        .first()
        .click();
      await expect(page.getByRole("button", { name: t("developers.redeliver") })).toBeVisible();
      await check(page, `console-event-${locale}`);

      // Part two: the payments list, a payment, its refund confirmation, the customers and a customer.
      await page.goto(`/${locale}/console/payments`);
      await check(page, `console-payments-${locale}`);
      await page.locator('tbody a[href*="/console/payments/"]').first().click();
      await check(page, `console-payment-${locale}`);
      await page.goto(`${page.url()}?confirm=refund`);
      await expect(page.locator('form[action$="/console/actions/payment-refund"]')).toBeVisible();
      await check(page, `console-payment-refund-${locale}`);
      await page.locator('a[href*="/console/customers/"]').first().click();
      await check(page, `console-customer-${locale}`);
      await page.goto(`/${locale}/console/customers?q=a`);
      await check(page, `console-customers-${locale}`);

      await page.goto(`/${locale}/console/settings`);
      await check(page, `console-settings-${locale}`);

      await page.goto(`/${locale}/console/payment-links`);
      await page.getByLabel(t("paymentLinks.fields.title"), { exact: true }).fill(`Sac ${locale}`);
      await page.getByLabel(t("paymentLinks.fields.amount"), { exact: true }).fill("1500");
      await page.getByRole("button", { name: t("paymentLinks.createButton"), exact: true }).click();
      await expect(page.getByRole("heading", { level: 3, name: `Sac ${locale}` })).toBeVisible();
      await check(page, `console-payment-links-${locale}`);

      await page.goto(`/${locale}/console/team`);
      await page.getByLabel(t("team.email"), { exact: true }).fill(newEmail("invitee"));
      await page.getByRole("button", { name: t("team.invite"), exact: true }).click();
      const link = await page.getByLabel(t("team.invitationLink")).inputValue();
      await check(page, `console-team-${locale}`);

      await page.goto(`/${locale}/console/audit-log`);
      await expect(page.getByRole("cell", { name: t("auditLog.actions.client_secret_rolled") })).toBeVisible();
      await check(page, `console-audit-log-${locale}`);

      await page.goto(`/${locale}/console`);
      await check(page, `console-home-${locale}`);

      expect((await page.goto(`/${locale}/console/refused?need=team.manage`))?.status()).toBe(403);
      await check(page, `console-refused-${locale}`);

      await page.goto(`/${locale}/console/account`);
      await check(page, `console-account-${locale}`);
      await page.getByRole("button", { name: t("account.turnOn") }).click();
      const secret = await page.getByLabel(t("account.secretKey")).inputValue();
      await check(page, `console-account-two-step-setup-${locale}`);
      await page.getByLabel(t("code.field")).fill(authenticatorCode(secret));
      await page.getByRole("button", { name: t("code.submit") }).click();
      await expect(page.getByRole("list", { name: t("account.recoveryCodes") }).getByRole("listitem")).toHaveCount(10);
      await check(page, `console-account-recovery-codes-${locale}`);

      // On a phone "Sign out" sits behind the header's menu (a <details>).
      await page.locator("header details summary").click();
      await page.getByRole("button", { name: t("nav.signOut"), exact: true }).click();
      await page.goto(`/${locale}/console/sign-in`);
      await page.getByLabel(t("signIn.email"), { exact: true }).fill(email);
      await page.getByLabel(t("signIn.password"), { exact: true }).fill(CONSOLE_PASSWORD);
      await page.getByRole("button", { name: t("signIn.submit") }).click();
      await expect(page.getByLabel(t("code.field"))).toBeVisible();
      await check(page, `console-code-step-${locale}`);

      const guest = await (
        await browser.newContext({
          baseURL: BASE_URL,
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
        })
      ).newPage();
      await guest.goto(link.replace(/\/console\//, `/${locale}/console/`).replace(/^https?:\/\/[^/]+/, ""), {});
      await expect(guest.getByRole("button", { name: t("invitation.submit") })).toBeVisible();
      await check(guest, `console-invitation-${locale}`);
      await guest.context().close();
    });
  }
});
