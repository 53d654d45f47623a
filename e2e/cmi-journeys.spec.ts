import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import { checkoutText, intentCheckout, methodChoice } from "./support/links";
import { rollSecret, signUp } from "./support/console";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";
import type { PageLocale } from "./support/messages";

// Issue 44: a MAD checkout paid with CMI on a phone, in English and in Arabic: the page before
// CMI's (its Pay button posts the form signed on the server straight to CMI's gate), CMI's
// (simulated) 3D Pay Hosting page, the return page; the same without JavaScript; a declined
// card and Cancel.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-MA" };

const CMI_PAGE = {
  en: { cardNumber: "Card number", expiry: "Expiry date", cvc: "CVC", pay: /^Pay/, cancel: "Cancel", back: "Back to the merchant's site" },
  fr: { cardNumber: "Numéro de carte", expiry: "Date d'expiration", cvc: "CVC", pay: /^Payer/, cancel: "Annuler", back: "Retour au site marchand" },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ انتهاء الصلاحية", cvc: "رمز CVC", pay: /^ادفع/, cancel: "إلغاء", back: "العودة إلى موقع التاجر" },
} as const;

/** CMI's page after the attempt: its button posts CMI's answer fields with the buyer back to the gateway. */
async function backFromCmi(page: Page, locale: PageLocale) {
  await page.getByRole("button", { name: CMI_PAGE[locale].back, exact: true }).click();
}

async function shot(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `test-results/cmi/${name}.png`, fullPage: true });
}

async function payOnCmiPage(page: Page, locale: PageLocale, cardNumber = "4242 4242 4242 4242") {
  const words = CMI_PAGE[locale];
  await page.getByLabel(words.cardNumber, { exact: true }).fill(cardNumber);
  await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
  await page.getByLabel(words.cvc, { exact: true }).fill("123");
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`CMI from a MAD checkout in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);
    const words = CMI_PAGE[locale];
    const payButton = (page: Page) => page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) });

    test(`pays 123.45 MAD on CMI's page and stays on the return page (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/cmi-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, { returnUrl: target, amount: 123.45, country: "MAR", currency: "MAD" });
      await page.goto(url);
      const choice = methodChoice(page, locale);
      await choice.cmi.check();
      await shot(page, `checkout-${locale}`);
      await choice.continue.click();

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}`));
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByText(t("redirect.introCmi"))).toBeVisible();
      const pay = payButton(page);
      await expect(pay.getByRole("img", { name: t("redirect.logoAltCmi") })).toBeVisible();
      await shot(page, `before-cmi-${locale}`);
      await pay.click();

      await expect(page).toHaveURL(/\/api\/cmi-sandbox\/fim\/est3Dgate$/);
      await expect(page.locator(".amount")).toHaveText("123.45 MAD");
      await payOnCmiPage(page, locale);
      await shot(page, `cmi-page-${locale}`);
      await page.getByRole("button", { name: words.pay }).click();
      // CMI's answer page (its button posts the signed fields back): loaded before it is measured.
      await expect(page.getByRole("button", { name: words.back, exact: true })).toBeVisible();
      await shot(page, `cmi-back-${locale}`);
      await backFromCmi(page, locale);

      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      const back = page.getByRole("link", { name: t("return.continue", { merchant: shop.name }) });
      await expect(back).toHaveAttribute("href", `${target}?paymentId=${paymentId}&statusCode=2`);
      await shot(page, `return-${locale}`);
      expect(await checkPayment(shop, paymentId)).toMatchObject({ statusCode: 2, amount: 123.45 });
    });

    test(`a declined card and Cancel on CMI's page fail the payment (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      for (const action of ["declined", "cancel"] as const) {
        const { paymentId, url } = await intentCheckout(shop, { amount: 25.5, country: "MAR", currency: "MAD" });
        await page.goto(url);
        const choice = methodChoice(page, locale);
        await choice.cmi.check();
        await choice.continue.click();
        await payButton(page).click();
        if (action === "cancel") {
          await page.getByRole("button", { name: words.cancel, exact: true }).click();
        } else {
          await payOnCmiPage(page, locale, "4000 0000 0000 0002");
          await page.getByRole("button", { name: words.pay }).click();
        }
        await backFromCmi(page, locale);
        await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
        await shot(page, `${action}-${locale}`);
        expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
      }
    });
  });
}

test.describe("CMI without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "en-US", viewport: { width: 390, height: 844 } });

  test("the page before CMI's posts the signed form with a plain button, and the payment succeeds", async ({ page }) => {
    const t = checkoutText("en");
    const shop = merchant("shared");
    const { paymentId, url } = await intentCheckout(shop, { amount: 80, country: "MAR", currency: "MAD" });
    await page.goto(url);
    const choice = methodChoice(page, "en");
    await choice.cmi.check();
    await choice.continue.click();
    await expect(page).toHaveURL(new RegExp(`/en/pay/redirect/${paymentId}`));
    // The form carries CMI's fields and their hash, never the store key.
    await expect(page.locator('input[type="hidden"][name="HASH"]')).toHaveCount(1);
    await expect(page.locator('input[type="hidden"][name="amount"]')).toHaveValue("80.00");
    await page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) }).click();
    await expect(page.locator(".amount")).toHaveText("80.00 MAD");
    await payOnCmiPage(page, "en");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await backFromCmi(page, "en");
    await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
    await shot(page, "no-javascript-return-en");
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });
});

test.describe("A CMI reservation captured in part from the console", () => {
  test.use({ locale: "en-US", viewport: { width: 390, height: 844 } });

  test("the buyer's card is pre-authorized at CMI, the owner captures 199.99 of 300.00 MAD", async ({ page, browser }) => {
    const t = checkoutText("en");
    await signUp(page);
    await rollSecret(page, "client");
    const clientId = await page.getByLabel("Client id").inputValue();
    const clientSecret = await page.getByLabel("New secret").inputValue();
    const shop = { clientId, clientSecret, service: clientId.split(".")[1]! } as OnboardedMerchant;
    const { paymentId, url } = await intentCheckout(shop, { amount: 300, country: "MAR", currency: "MAD", captureMethod: "RESERVATION" });

    const buyer = await (await browser.newContext({ locale: "en-US", viewport: { width: 390, height: 844 } })).newPage();
    await buyer.goto(url);
    const choice = methodChoice(buyer, "en");
    await choice.cmi.check();
    await choice.continue.click();
    await buyer.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) }).click();
    await payOnCmiPage(buyer, "en");
    await buyer.getByRole("button", { name: /^Pay/ }).click();
    await backFromCmi(buyer, "en");
    await expect(buyer).toHaveURL(new RegExp(`/en/pay/return/${paymentId}`));
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(13);
    await buyer.close();

    await page.goto(`/en/console/payments/${paymentId}`);
    await shot(page, "console-reservation-en");
    await page.getByRole("link", { name: "Capture", exact: true }).click();
    await page.getByLabel("Amount", { exact: true }).fill("199.99");
    await page.getByRole("button", { name: "Confirm capture" }).click();
    await expect(page.getByText("The payment was captured.")).toBeVisible();
    await shot(page, "console-captured-en");
    expect(await checkPayment(shop, paymentId)).toMatchObject({ statusCode: 2 });
  });
});
