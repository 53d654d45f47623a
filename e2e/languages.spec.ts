import { SANDBOX_OTP } from "./support/env";
import type { Page } from "@playwright/test";
import { expect, otpPage, test } from "./support/fixtures";
import { merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";

test.describe("French (x-locale fr_FR)", () => {
  test("the payUrl opens in French, formats TND with 3 decimals, and the payment completes in French", async ({
    page,
  }) => {
    const { paymentId, payUrl } = await startWalletPayment(merchant("shared"), {
      amount: 12.5,
      currency: "TND",
      country: "TUN",
      xLocale: "fr_FR",
    });
    expect(new URL(payUrl).pathname).toMatch(/^\/fr\/pay\/otp\//);
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/fr/merci`));

    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("heading", { level: 1, name: "Confirmez votre paiement" })).toBeVisible();
    await expect(page.getByText("12,500\u00a0TND")).toBeVisible();
    await expect(page.getByRole("button", { name: "Renvoyer le code" })).toBeDisabled();

    await page.getByLabel("Code de vérification").fill("000000");
    await page.getByRole("button", { name: "Confirmer le paiement" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Ce code est incorrect. 4 essais restants." }),
    ).toBeVisible();

    await page.getByLabel("Code de vérification").fill(SANDBOX_OTP);
    await page.getByRole("button", { name: "Confirmer le paiement" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Paiement réussi" })).toBeVisible();
    await expect(page).toHaveURL(/\/fr\/pay\/return\//);
    await page.waitForURL(`${merchantSite()}/fr/merci?paymentId=${paymentId}&statusCode=2`, { timeout: 4_000 });
  });
});

test.describe("Arabic (from Accept-Language)", () => {
  test.use({ locale: "ar-DZ" });

  test("a payUrl without locale follows the browser to Arabic, right to left, and accepts Arabic-Indic digits", async ({
    page,
  }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"), { amount: 1500, currency: "DZD" });
    expect(new URL(payUrl).pathname).toMatch(/^\/pay\/otp\//);
    await page.goto(payUrl);

    await expect(page).toHaveURL(/\/ar\/pay\/otp\/[^?]+\?token=/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const heading = page.getByRole("heading", { level: 1, name: "أكّد عملية الدفع" });
    await expect(heading).toBeVisible();
    // Laid out from the right: the heading's text starts at the card's right edge.
    const [headingBox, cardBox] = await Promise.all([
      heading.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return range.getBoundingClientRect().right;
      }),
      heading.evaluate((element) => element.getBoundingClientRect().right),
    ]);
    expect(Math.abs(headingBox - cardBox)).toBeLessThan(2);
    // Arabic puts the code after the number; the digits stay Western.
    await expect(page.getByText(/^\u200f?1,500\.00\s?DZD$/)).toBeVisible();

    await page.getByLabel("رمز التحقق").fill("٠٠٠٠٠٠");
    await page.getByRole("button", { name: "تأكيد الدفع" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "الرمز غير صحيح. بقيت 4 محاولات." })).toBeVisible();

    await page.getByLabel("رمز التحقق").fill("١٢٣٤٥٦");
    await page.getByRole("button", { name: "تأكيد الدفع" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "تم الدفع بنجاح" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  });
});

test.describe("language switcher", () => {
  test("switches language on the same payment, keeping token and returnUrl", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"), { xLocale: "fr_FR" });
    const returnUrl = `${merchantSite()}/back?cart=7`;
    await page.goto(withReturnUrl(payUrl, returnUrl));
    const frenchQuery = new URL(page.url()).search;

    await page.getByRole("navigation", { name: "Langue" }).getByRole("link", { name: "English" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your payment" })).toBeVisible();
    expect(new URL(page.url()).pathname).toMatch(/^\/en\/pay\/otp\//);
    expect(new URL(page.url()).search).toBe(frenchQuery);
    expect(new URL(page.url()).searchParams.get("returnUrl")).toBe(returnUrl);

    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "العربية" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("link", { name: "العربية" })).toHaveAttribute("aria-current", "true");
    await expect(otpPage(page).code).toHaveCount(0); // the English accessible name is gone: the page is Arabic
    await submitCodeIn(page, "رمز التحقق", "تأكيد الدفع", SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "تم الدفع بنجاح" })).toBeVisible();
  });
});

async function submitCodeIn(page: Page, label: string, button: string, code: string) {
  await page.getByLabel(label).fill(code);
  await page.getByRole("button", { name: button }).click();
}
