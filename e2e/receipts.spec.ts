import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { pdfText } from "../tests/support/pdf-text";
import { capture, expectNoSeriousViolations } from "./support/accessibility";
import { SANDBOX_OTP } from "./support/env";
import { expect, hydrated, test } from "./support/fixtures";
import { merchant, startWalletPayment } from "./support/gateway";
import { messagesFor, type PageLocale } from "./support/messages";

const locales = [
  { locale: "en", xLocale: "en_US", amount: "DZD 1,250.75" },
  { locale: "fr", xLocale: "fr_FR", amount: "1 250,75 DZD" },
  { locale: "ar", xLocale: "ar_DZ", amount: "1,250.75 DZD" },
] as const satisfies { locale: PageLocale; xLocale: string; amount: string }[];

// Where the PDFs a test downloaded are kept to be looked at, beside the screenshots.
const KEPT = path.join(import.meta.dirname, "screenshots");
// The e2e server runs without SMTP_URL; a run against a server with it (E2E_BASE_URL) says so here.
const withSmtp = Boolean(process.env.E2E_RECEIPT_SMTP);

/** Pays a wallet payment of the merchant with no return address: its return page stays. */
async function paidReturnPage(page: Page, locale: PageLocale, xLocale: string) {
  const t = messagesFor(locale);
  const payment = await startWalletPayment(merchant("noRedirect"), { amount: 1250.75, xLocale });
  await page.goto(payment.payUrl);
  await page.getByLabel(t("otp.codeLabel")).fill(SANDBOX_OTP);
  await page.getByRole("button", { name: t("otp.confirm") }).click();
  await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
  return payment;
}

async function downloadedPdfText(page: Page, locale: PageLocale, name: string) {
  const t = messagesFor(locale);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: t("receipt.download") }).click();
  const download = await downloading;
  mkdirSync(KEPT, { recursive: true });
  await download.saveAs(path.join(KEPT, `${name}.pdf`));
  return pdfText(await readFile(path.join(KEPT, `${name}.pdf`)));
}

test.describe("receipts on the return page (issue 43), at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const { locale, xLocale, amount } of locales) {
    test(`print only the receipt, download its PDF in ${locale}`, async ({ page }) => {
      const t = messagesFor(locale);
      await page.addInitScript(() => {
        (window as unknown as { printed: number }).printed = 0;
        window.print = () => void (window as unknown as { printed: number }).printed++;
      });
      const { paymentId } = await paidReturnPage(page, locale, xLocale);
      await hydrated(page);
      const receipt = page.getByRole("region", { name: t("receipt.title") });
      await expect(receipt).toContainText("Kiosk Sans Retour");
      await expect(receipt).toContainText(t("return.successful"));
      await expect(receipt).toContainText(paymentId);
      if (withSmtp) {
        await expect(page.getByLabel(t("receipt.email"))).toBeVisible();
        await expect(page.getByRole("button", { name: t("receipt.send") })).toBeVisible();
      } else {
        await expect(page.getByRole("button", { name: t("receipt.send") })).toHaveCount(0);
      }
      await expectNoSeriousViolations(page, `return-receipt-${locale}`);
      // Nothing wider than the phone's screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await capture(page, `return-receipt-${locale}${withSmtp ? "-smtp" : ""}`);

      await page.getByRole("button", { name: t("receipt.print") }).click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
      await page.emulateMedia({ media: "print" });
      await expect(receipt).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toBeHidden();
      await expect(page.getByRole("link", { name: t("receipt.download") })).toBeHidden();
      await page.emulateMedia({ media: "screen" });

      if (withSmtp) {
        await page.getByLabel(t("receipt.email")).fill(`buyer-${locale}@example.com`);
        await page.getByRole("button", { name: t("receipt.send") }).click();
        await expect(page.getByRole("status").filter({ hasText: t("receipt.sent") })).toBeVisible();
        await capture(page, `return-receipt-sent-${locale}`);
      }

      const text = await downloadedPdfText(page, locale, `receipt-${locale}`);
      expect(text).toContain(t("receipt.title"));
      expect(text).toContain("Kiosk Sans Retour");
      expect(text).toContain(amount);
      expect(text).toContain(paymentId);
    });
  }

  test("without JavaScript: no print button, the PDF still downloads", async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
      locale: "en-US",
    });
    const page = await context.newPage();
    const t = messagesFor("en");
    const { paymentId } = await paidReturnPage(page, "en", "en_US");
    await expect(page.getByRole("button", { name: t("receipt.print") })).toBeHidden();
    const text = await downloadedPdfText(page, "en", "receipt-no-script-en");
    expect(text).toContain(paymentId);
    await context.close();
  });
});
