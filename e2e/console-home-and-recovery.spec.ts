import path from "node:path";
import type { Page } from "@playwright/test";
import { capture, expectNoSeriousViolations } from "./support/accessibility";
import { BASE_URL, E2E_DATABASE_URL, SANDBOX_OTP } from "./support/env";
import { CONSOLE_PASSWORD, consoleMessagesFor, newEmail, rollSecret } from "./support/console";
import { expect, submitCode, test } from "./support/fixtures";
import { startWalletPayment } from "./support/gateway";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";
import type { PageLocale } from "./support/messages";

const LOCALES: PageLocale[] = ["en", "fr", "ar"];

/** Axe finds nothing serious, nothing is wider than the 390 px screen, and the picture is kept. */
async function check(page: Page, name: string) {
  // The elements reaching past the screen's edge, named, so a failure says which.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => !element.closest(".sr-only"))
      .filter((element) => element.getBoundingClientRect().right > 391 || element.getBoundingClientRect().left < -1)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? "").slice(0, 40)}"`,
      ),
  );
  expect(wide, `${name} is wider than the screen`).toEqual([]);
  await expectNoSeriousViolations(page, name);
  await capture(page, name);
}

async function resetLinkThroughCli(email: string): Promise<string> {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/merchant.ts", "reset-password", "--email", email, "--json"],
    {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, PUBLIC_BASE_URL: BASE_URL, LOG_LEVEL: "silent" },
    },
  );
  return (JSON.parse(stdout.trim().split("\n").at(-1)!) as { resetUrl: string }).resetUrl;
}

test.describe("the console home and account recovery at 390 px (issue 42)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const locale of LOCALES) {
    test(`home at a glance, then a password reset, in ${locale}`, async ({ page, browser }) => {
      test.setTimeout(180_000);
      const t = consoleMessagesFor(locale);
      const email = newEmail(`home-${locale}`);

      // Sign-up lands on the home.
      await page.goto(`/${locale}/console/sign-up`);
      await page.getByLabel(t("signUp.name"), { exact: true }).fill("Yasmine");
      await page.getByLabel(t("signUp.email"), { exact: true }).fill(email);
      await page.getByLabel(t("signUp.password"), { exact: true }).fill(CONSOLE_PASSWORD);
      await page.getByLabel(t("signUp.businessName"), { exact: true }).fill(`Épicerie ${locale}`);
      await page.getByRole("button", { name: t("signUp.submit") }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("home.title", { name: "Yasmine" }) })).toBeVisible();
      await expect(page.getByText(t("home.nothingNeeded"))).toBeVisible();

      // Two payments paid by the buyer, one left waiting: the home counts the paid ones.
      await page.goto(`/${locale}/console/developers`);
      await rollSecret(page, "client", locale);
      const clientId = await page.getByLabel(t("developers.clientId")).inputValue();
      const shop = {
        clientId,
        clientSecret: await page.getByLabel(t("developers.newSecret")).inputValue(),
        service: clientId.split(".")[1]!,
      } as OnboardedMerchant;
      for (const amount of [1250.75, 300]) {
        const { payUrl } = await startWalletPayment(shop, { amount });
        const buyer = await browser.newPage();
        await buyer.goto(payUrl);
        await submitCode(buyer, SANDBOX_OTP);
        await expect(buyer).toHaveURL(/\/pay\/return\//);
        await buyer.close();
      }
      await page.goto(`/${locale}/console`);
      const takings = page.getByRole("region", { name: t("home.takingsTitle") });
      await expect(takings.getByRole("link", { name: t("home.succeededCount", { count: 2 }) }).first()).toBeVisible();
      // The chart's figures, for a screen reader, as a table.
      await expect(page.getByRole("table", { name: t("home.chartTableCaption", { currency: "DZD" }) })).toBeAttached();
      await expect(page.getByRole("region", { name: t("home.methodsTitle") })).toContainText(t("home.methods.wallet"));
      await check(page, `console-home-${locale}`);

      // The owner's reset link on the Team page, shown once in a read-only field.
      await page.goto(`/${locale}/console/team`);
      await page.getByRole("button", { name: t("team.makeResetLink", { email }) }).click();
      await expect(page.getByLabel(t("team.resetLink"))).toHaveValue(/\/console\/reset-password\/[A-Za-z0-9_-]{43}$/);
      await check(page, `console-team-reset-link-${locale}`);

      // "Forgot password?" from the sign-in page: this server has no SMTP_URL, and says so.
      await page.context().clearCookies();
      await page.goto(`/${locale}/console/sign-in`);
      await page.getByRole("link", { name: t("signIn.forgot") }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("forgotPassword.noMailTitle") })).toBeVisible();
      await check(page, `console-forgot-password-${locale}`);

      // The operator's link: "New password", "Set password", then sign in with it.
      const resetUrl = await resetLinkThroughCli(email);
      const localUrl = resetUrl.replace(/\/console\//, `/${locale}/console/`);
      await page.goto(localUrl);
      await expect(page.getByRole("heading", { level: 1, name: t("resetPassword.title") })).toBeVisible();
      await page.getByLabel(t("resetPassword.newPassword")).fill("short");
      await page
        .getByLabel(t("resetPassword.newPassword"))
        .evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"));
      await page.getByRole("button", { name: t("resetPassword.submit") }).click();
      await expect(page.getByText(t("resetPassword.errors.too_short"))).toBeVisible();
      await check(page, `console-reset-password-${locale}`);
      await page.getByLabel(t("resetPassword.newPassword")).fill("my brand new console password");
      await page.getByRole("button", { name: t("resetPassword.submit") }).click();
      await expect(page.getByText(t("signIn.passwordReset"))).toBeVisible();
      await check(page, `console-sign-in-after-reset-${locale}`);

      // The link works once.
      await page.goto(localUrl);
      await expect(page.getByRole("heading", { level: 1, name: t("resetPassword.notOpenTitle") })).toBeVisible();

      await page.goto(`/${locale}/console/sign-in`);
      await page.getByLabel(t("signIn.email"), { exact: true }).fill(email);
      await page.getByLabel(t("signIn.password"), { exact: true }).fill("my brand new console password");
      await page.getByRole("button", { name: t("signIn.submit") }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("home.title", { name: "Yasmine" }) })).toBeVisible();
    });
  }
});
