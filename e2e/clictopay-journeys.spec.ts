import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import { checkoutText, intentCheckout, methodChoice } from "./support/links";
import type { PageLocale } from "./support/messages";

// Issue 44: a TND checkout paid with ClicToPay on a phone, in English, French and Arabic: the page
// before ClicToPay's (the amount in millimes, 1.234 TND), ClicToPay's (simulated) page, the
// return page that stays with its "Return to" link.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-TN" };

const CLICTOPAY_PAGE = {
  en: { cardNumber: "Card number", expiry: "Expiry date", cvc: "CVC", pay: /^Pay/, cancel: "Cancel" },
  fr: { cardNumber: "Numéro de carte", expiry: "Date d'expiration", cvc: "CVC", pay: /^Payer/, cancel: "Annuler" },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ انتهاء الصلاحية", cvc: "رمز CVC", pay: /^ادفع/, cancel: "إلغاء" },
} as const;

async function shot(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const path = `test-results/clictopay/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}

for (const locale of ["en", "fr", "ar"] as const) {
  test.describe(`ClicToPay from a TND checkout in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);
    const words = CLICTOPAY_PAGE[locale];

    test(`pays 1.234 TND on ClicToPay's page and stays on the return page (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/clictopay-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, {
        returnUrl: target,
        amount: 1.234,
        country: "TUN",
        currency: "TND",
      });
      await page.goto(url);
      const choice = methodChoice(page, locale);
      await choice.clictopay.check();
      await shot(page, `checkout-${locale}`);
      await choice.continue.click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}`));
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByText(t("redirect.introClictopay"))).toBeVisible();
      const pay = page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) });
      await expect(pay.getByRole("img", { name: t("redirect.logoAltClictopay") })).toBeVisible();
      await shot(page, `before-clictopay-${locale}`);
      await pay.click();

      await expect(page).toHaveURL(/\/api\/clictopay-sandbox\/payment\/merchants\/sandbox\/payment\.html\?mdOrder=/);
      await expect(page.locator(".amount")).toHaveText("1.234 TND");
      await page.getByLabel(words.cardNumber, { exact: true }).fill("4242 4242 4242 4242");
      await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
      await page.getByLabel(words.cvc, { exact: true }).fill("123");
      await shot(page, `clictopay-page-${locale}`);
      await page.getByRole("button", { name: words.pay }).click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      const back = page.getByRole("link", { name: t("return.continue", { merchant: shop.name }) });
      await expect(back).toHaveAttribute("href", `${target}?paymentId=${paymentId}&statusCode=2`);
      await shot(page, `return-${locale}`);
      expect(await checkPayment(shop, paymentId)).toMatchObject({ statusCode: 2, amount: 1.234 });
    });

    test(`a declined card and Cancel on ClicToPay's page fail the payment (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      for (const action of ["declined", "cancel"] as const) {
        const { paymentId, url } = await intentCheckout(shop, { amount: 25.5, country: "TUN", currency: "TND" });
        await page.goto(url);
        const choice = methodChoice(page, locale);
        await choice.clictopay.check();
        await choice.continue.click();
        await page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) }).click();
        if (action === "cancel") {
          await page.getByRole("button", { name: words.cancel, exact: true }).click();
        } else {
          await page.getByLabel(words.cardNumber, { exact: true }).fill("4000 0000 0000 0002");
          await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
          await page.getByLabel(words.cvc, { exact: true }).fill("123");
          await page.getByRole("button", { name: words.pay }).click();
        }
        await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
        await shot(page, `${action}-${locale}`);
        expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
      }
    });
  });
}
