import { capture, expectNoSeriousViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { merchant, merchantSite, withReturnUrl } from "./support/gateway";
import type { PageLocale } from "./support/messages";
import { openWalletApp, qrPage, startQrPayment, walletApp } from "./support/qr";

const locales = [
  { locale: "en", xLocale: "en_US", dir: "ltr" },
  { locale: "fr", xLocale: "fr_FR", dir: "ltr" },
  { locale: "ar", xLocale: "ar_DZ", dir: "rtl" },
] as const satisfies { locale: PageLocale; xLocale: string; dir: string }[];

test.describe("the QR page and sandbox wallet app per language: axe finds nothing serious, screenshots kept", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  for (const { locale, xLocale, dir } of locales) {
    test(`QR page, wallet app and its answer in ${locale}`, async ({ page, browserProblems }) => {
      const { qrPageUrl } = await startQrPayment(merchant("shared"), { amount: 1250.75, xLocale });
      await page.goto(withReturnUrl(qrPageUrl, `${merchantSite()}/orders/done`));
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
      const qr = qrPage(page, locale);
      await expect(qr.image).toBeVisible();
      await expect
        .poll(() => qr.image.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
        .toBe(true);
      await expectNoSeriousViolations(page, `qr-${locale}`);
      await capture(page, `qr-${locale}`);

      const phone = await openWalletApp(page, browserProblems, locale);
      await expect(phone.locator("html")).toHaveAttribute("lang", locale);
      await expect(walletApp(phone, locale).heading("wallet.title")).toBeVisible();
      await expectNoSeriousViolations(phone, `wallet-app-${locale}`);
      await capture(phone, `wallet-app-${locale}`);

      // Keep the ended QR page on screen too, for its scan and picture: its move to the return page is cancelled.
      await page.route("**/pay/return/**", (route) => route.abort("aborted"));
      await walletApp(phone, locale).approve.click();
      await expect(walletApp(phone, locale).heading("wallet.approvedTitle")).toBeVisible();
      await expectNoSeriousViolations(phone, `wallet-app-approved-${locale}`);
      await capture(phone, `wallet-app-approved-${locale}`);

      await expect(qr.statusSaying("qr.successful")).toBeVisible({ timeout: 10_000 });
      await expectNoSeriousViolations(page, `qr-successful-${locale}`);
      await capture(page, `qr-successful-${locale}`);
    });
  }

  test("the QR page on a desktop screen", async ({ page }) => {
    const { qrPageUrl } = await startQrPayment(merchant("shared"), {
      xLocale: "en_US",
      amount: 12.5,
      currency: "TND",
      country: "TUN",
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(qrPageUrl);
    await expect(qrPage(page).image).toBeVisible();
    await expect(page.getByText("TND 12.500")).toBeVisible();
    await expectNoSeriousViolations(page, "qr-desktop-en");
    await capture(page, "qr-desktop-en");
  });
});
