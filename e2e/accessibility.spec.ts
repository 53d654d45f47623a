import type { Page } from "@playwright/test";
import { SANDBOX_OTP } from "./support/env";
import { capture, expectNoSeriousViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";
import { messagesFor, type PageLocale } from "./support/messages";

const locales = [
  { locale: "en", xLocale: "en_US" },
  { locale: "fr", xLocale: "fr_FR" },
  { locale: "ar", xLocale: "ar_DZ" },
] as const satisfies { locale: PageLocale; xLocale: string }[];

/** Types a code and confirms, in the page's language; waits until the page has answered. */
async function submitCodeIn(page: Page, locale: PageLocale, code: string, expected: string) {
  const t = messagesFor(locale);
  await page.getByLabel(t("otp.codeLabel")).fill(code);
  await page.getByRole("button", { name: t("otp.confirm") }).click();
  // first(): on the return page the outcome is also a line of its receipt.
  await expect(page.getByRole("main").getByText(expected, { exact: true }).first()).toBeVisible();
}

/**
 * Keeps the return page on screen for the scan and the picture: its move to the merchant is
 * cancelled at the network, the way a browser leaves a page in place for an aborted load.
 * (Pausing the page's clock instead would also stall axe, which runs on timers.)
 */
async function stayOnReturnPage(page: Page) {
  await page.route(`${merchantSite()}/**`, (route) => route.abort("aborted"));
}

test.describe("every hosted page in every language: axe finds nothing serious, and a screenshot is kept", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const { locale, xLocale } of locales) {
    test(`OTP, wrong code, return and not-valid pages in ${locale}`, async ({ page }) => {
      const t = messagesFor(locale);
      const { payUrl } = await startWalletPayment(merchant("shared"), { amount: 1250.75, xLocale });
      await stayOnReturnPage(page);
      await page.goto(withReturnUrl(payUrl, `${merchantSite()}/orders/done`));
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expectNoSeriousViolations(page, `otp-${locale}`);
      await capture(page, `otp-${locale}`);

      await submitCodeIn(page, locale, "000000", t("otp.wrongCode", { attemptsLeft: 4 }));
      await expectNoSeriousViolations(page, `otp-wrong-code-${locale}`);
      await capture(page, `otp-wrong-code-${locale}`);

      await submitCodeIn(page, locale, SANDBOX_OTP, t("return.successful"));
      await expect(page).toHaveURL(/\/pay\/return\//);
      await expectNoSeriousViolations(page, `return-successful-${locale}`);
      await capture(page, `return-successful-${locale}`);
      // Stop the (already cancelled) move so it cannot race the next navigation.
      await page.getByRole("button", { name: t("return.stay") }).click();

      const response = await page.goto(`/${locale}/pay/otp/00000000-0000-4000-8000-000000000000?token=x`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: t("linkInvalid.title") })).toBeVisible();
      await expectNoSeriousViolations(page, `link-not-valid-${locale}`);
      await capture(page, `link-not-valid-${locale}`);
    });

    test(`failed and unfinished payment pages in ${locale}`, async ({ page }) => {
      const t = messagesFor(locale);
      const shop = merchant("shared");
      const failed = await startWalletPayment(shop, { xLocale, amount: 12.5, currency: "TND", country: "TUN" });
      await stayOnReturnPage(page);
      await page.goto(failed.payUrl.replace("/pay/otp/", "/pay/return/"));
      await expect(page.getByRole("heading", { level: 1, name: t("return.pending") })).toBeVisible();
      // Same components as the scanned return page: a picture is enough here.
      await capture(page, `return-pending-${locale}`);

      await page.goto(failed.payUrl);
      for (const attemptsLeft of [4, 3, 2, 1]) {
        await submitCodeIn(page, locale, "999999", t("otp.wrongCode", { attemptsLeft }));
      }
      await submitCodeIn(page, locale, "999999", t("return.failed"));
      await expect(page).toHaveURL(/\/pay\/return\//);
      await expectNoSeriousViolations(page, `return-failed-${locale}`);
      await capture(page, `return-failed-${locale}`);
    });
  }

  test("the sandbox demo merchant's landing page", async ({ page }) => {
    await page.goto("/demo/return?paymentId=3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12&statusCode=2");
    await expect(page.getByTestId("demo-status-code")).toHaveText("2");
    await expect(page.getByTestId("demo-payment-id")).toHaveText("3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12");
    await expectNoSeriousViolations(page, "demo-return");
    await capture(page, "demo-return");
  });
});

test("the OTP page on a desktop screen, in each language (pictures; the phone-size scans cover the markup)", async ({
  page,
}) => {
  for (const { locale, xLocale } of locales) {
    const { payUrl } = await startWalletPayment(merchant("shared"), { xLocale });
    await page.goto(payUrl);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await capture(page, `otp-desktop-${locale}`);
  }
});
