import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import { checkoutText, intentCheckout, methodChoice } from "./support/links";
import type { PageLocale } from "./support/messages";

// Contract 15: paying with SATIM (CIB / EDAHABIA) from the hosted checkout, on a phone, in
// English and in Arabic: the page before SATIM's, SATIM's (simulated) page, the return page
// that stays with its "Return to" link.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-DZ" };

// The simulator's page speaks the order's language (register.do's `language`).
const SATIM_PAGE = {
  en: { cardNumber: "Card number", expiry: "Expiry date", cvc: "CVC", pay: /^Pay/ },
  fr: { cardNumber: "Numéro de carte", expiry: "Date d'expiration", cvc: "CVC", pay: /^Payer/ },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ انتهاء الصلاحية", cvc: "رمز CVC", pay: /^ادفع/ },
} as const;

async function shot(page: Page, name: string) {
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `test-results/satim/${name}.png`, fullPage: true });
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`SATIM from the checkout in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);

    test(`pays with a CIB card on SATIM's page and stays on the return page (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/satim-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, { returnUrl: target, amount: 1250.75 });
      await page.goto(url);
      const choice = methodChoice(page, locale);
      await choice.satim.check();
      await shot(page, `checkout-${locale}`);
      await choice.continue.click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}`));
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByRole("heading", { level: 1, name: t("redirect.title") })).toBeVisible();
      const pay = page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) });
      await expect(pay).toBeVisible();
      await expect(pay.getByRole("img", { name: t("redirect.logoAlt") })).toBeVisible();
      if (locale === "en") await expect(pay).toHaveAccessibleName(/^Pay /);
      await shot(page, `before-satim-${locale}`);
      await pay.click();

      await expect(page).toHaveURL(/\/api\/satim-sandbox\/payment\/merchants\/sandbox\/payment\.html\?mdOrder=/);
      const words = SATIM_PAGE[locale];
      await page.getByLabel(words.cardNumber, { exact: true }).fill("4242 4242 4242 4242");
      await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
      await page.getByLabel(words.cvc, { exact: true }).fill("123");
      await shot(page, `satim-page-${locale}`);
      await page.getByRole("button", { name: words.pay }).click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      const back = page.getByRole("link", { name: t("return.continue", { merchant: shop.name }) });
      await expect(back).toHaveAttribute("href", `${target}?paymentId=${paymentId}&statusCode=2`);
      if (locale === "en") await expect(back).toHaveAccessibleName(/^Return to /);
      // Contract 15: the page does not move on by itself (the others leave after 3 seconds).
      await page.waitForTimeout(4_000);
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
      await shot(page, `return-${locale}`);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
    });

    test(`Cancel on SATIM's page fails the payment (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const { paymentId, url } = await intentCheckout(shop, { amount: 300 });
      await page.goto(url);
      const choice = methodChoice(page, locale);
      await choice.satim.check();
      await choice.continue.click();
      await page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) }).click();
      await page.getByRole("button", { name: locale === "ar" ? "إلغاء" : "Cancel", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
      await shot(page, `canceled-${locale}`);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
    });
  });
}
