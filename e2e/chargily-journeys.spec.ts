import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant } from "./support/gateway";
import { buyerPhone, checkoutText, createLink, getLink, intentCheckout, methodChoice } from "./support/links";
import type { PageLocale } from "./support/messages";

// Issue 43: Chargily Pay on a phone, in English and in Arabic: a payment link paid with
// Chargily (the page before Chargily's, Chargily's simulated checkout in the buyer's language,
// its signed webhook settling the payment, the return page), then a declined card and Cancel.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-DZ" };

const CHARGILY_PAGE = {
  en: { cardNumber: "Card number", expiry: "Expiry date", cvc: "CVC", pay: /^Pay/, cancel: "Cancel" },
  fr: { cardNumber: "Numéro de carte", expiry: "Date d'expiration", cvc: "CVC", pay: /^Payer/, cancel: "Annuler" },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ انتهاء الصلاحية", cvc: "رمز CVC", pay: /^ادفع/, cancel: "إلغاء" },
} as const;

async function shot(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `test-results/chargily/${name}.png`, fullPage: true });
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`Chargily Pay in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);
    const words = CHARGILY_PAGE[locale];
    const payButton = (page: Page) =>
      page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) });

    async function card(page: Page, number: string) {
      await page.getByLabel(words.cardNumber, { exact: true }).fill(number);
      await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
      await page.getByLabel(words.cvc, { exact: true }).fill("123");
    }

    test(`pays a payment link of 2500 DZD with Chargily (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const link = await createLink(shop, { title: `Chargily link ${locale}`, amount: 2500 });
      await page.goto(link.url);
      await page.getByLabel(t("paymentLink.phoneLabel"), { exact: true }).fill(buyerPhone());
      const choice = methodChoice(page, locale);
      await choice.chargily.check();
      await shot(page, `link-${locale}`);
      await choice.continue.click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/`));
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByText(t("redirect.introChargily"))).toBeVisible();
      await expect(payButton(page).getByRole("img", { name: t("redirect.logoAltChargily") })).toBeVisible();
      await shot(page, `before-chargily-${locale}`);
      await payButton(page).click();

      // Chargily's checkout, in the buyer's language.
      await expect(page).toHaveURL(/\/api\/chargily-sandbox\/checkout\/[0-9a-f]{26}$/);
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.locator(".amount")).toHaveText("2500 DZD");
      await page.getByRole("radio", { name: "CIB" }).check();
      await card(page, "4242 4242 4242 4242");
      await shot(page, `chargily-page-${locale}`);
      await page.getByRole("button", { name: words.pay }).click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/`));
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await shot(page, `return-${locale}`);
      await expect.poll(async () => (await getLink(shop, link.id)).succeededAmount).toBe(2500);
    });

    test(`a declined card and Cancel on Chargily's page fail the payment (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      for (const action of ["declined", "cancel"] as const) {
        const { paymentId, url } = await intentCheckout(shop, { amount: 700 });
        await page.goto(url);
        const choice = methodChoice(page, locale);
        await choice.chargily.check();
        await choice.continue.click();
        await payButton(page).click();
        if (action === "cancel") {
          await page.getByRole("button", { name: words.cancel, exact: true }).click();
        } else {
          await card(page, "4000 0000 0000 0002");
          await page.getByRole("button", { name: words.pay }).click();
        }
        await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
        await shot(page, `${action}-${locale}`);
        expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
      }
    });
  });
}
