import type { Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import { checkoutText, intentCheckout, methodChoice } from "./support/links";
import type { PageLocale } from "./support/messages";
import { setTermsUrl } from "./support/onboard";

// Contract 15: paying with SATIM (CIB / EDAHABIA) from the hosted checkout, on a phone, in
// English and in Arabic, with and without JavaScript: the page before SATIM's with SATIM's
// checklist (amount to pay, terms of payment, anti-bot check, the CIB / EDAHABIA logo on Pay),
// SATIM's (simulated) page, and the return page that stays, with the receipt and SATIM's
// support message with its toll-free number 3020.
//
// The anti-bot check in these journeys: with JavaScript, the page's island solves ALTCHA's
// proof of work itself (the same as for a buyer); without it, the test types the sandbox's code
// 123456 (contract 15), the one answer the sandbox always takes and production never does.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-DZ" };
const SANDBOX_ANTI_BOT_CODE = "123456";

// The simulator's page speaks the order's language (register.do's `language`).
const SATIM_PAGE = {
  en: { cardNumber: "Card number", expiry: "Expiry date", cvc: "CVC", pay: /^Pay/ },
  fr: { cardNumber: "Numéro de carte", expiry: "Date d'expiration", cvc: "CVC", pay: /^Payer/ },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ انتهاء الصلاحية", cvc: "رمز CVC", pay: /^ادفع/ },
} as const;

const TERMS_URL = "https://souk-atlas.example/conditions-de-paiement";

test.beforeAll(async () => {
  await setTermsUrl(merchant("shared"), TERMS_URL);
});

async function shot(page: Page, name: string) {
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `test-results/satim/${name}.png`, fullPage: true });
}

/** The checkout, SATIM chosen: lands on the page before SATIM's. */
async function toPageBeforeSatim(page: Page, locale: PageLocale, options: { amount: number; returnUrl?: string }) {
  const shop = merchant("shared");
  const { paymentId, url } = await intentCheckout(shop, options);
  await page.goto(url);
  const choice = methodChoice(page, locale);
  await choice.satim.check();
  await choice.continue.click();
  await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}`));
  return { shop, paymentId };
}

/** What the page before SATIM's shows in `locale`. */
function beforeSatim(page: Page, locale: PageLocale) {
  const t = checkoutText(locale);
  return {
    pay: page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) }),
    terms: page.getByRole("checkbox", { name: t("paymentTerms.accept") }),
    termsLink: page.getByRole("link", { name: t("paymentTerms.read") }),
    antiBot: page.getByRole("group", { name: t("antiBot.legend") }),
    antiBotPassed: page.getByRole("status").filter({ hasText: t("antiBot.passed") }),
    code: page.getByLabel(t("antiBot.codeLabel")),
  };
}

/** On SATIM's (simulated) page: pays with a card that passes. */
async function payOnSatimPage(page: Page, locale: PageLocale, name: string) {
  await expect(page).toHaveURL(/\/api\/satim-sandbox\/payment\/merchants\/sandbox\/payment\.html\?mdOrder=/);
  const words = SATIM_PAGE[locale];
  await page.getByLabel(words.cardNumber, { exact: true }).fill("4242 4242 4242 4242");
  await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
  await page.getByLabel(words.cvc, { exact: true }).fill("123");
  await shot(page, name);
  await page.getByRole("button", { name: words.pay }).click();
}

/** The return page of a paid SATIM payment: the outcome, the receipt, SATIM's logo and 3020. */
async function expectSatimReturnPage(page: Page, locale: PageLocale, paymentId: string) {
  const t = checkoutText(locale);
  await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
  await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
  const support = page.getByRole("region", { name: t("providerSupport.heading") });
  await expect(support.getByRole("img", { name: t("providerSupport.logoAlt") })).toBeVisible();
  // 3020 in Western digits, isolated left to right (an Arabic sentence never reorders it).
  const phone = support.locator("bdi[dir=ltr]");
  await expect(phone).toHaveText("3020");
  await expect(support.getByRole("link", { name: "3020" })).toHaveAttribute("href", "tel:3020");
  await expect(support).toContainText(t("providerSupport.satim", { phone: "3020" }));
  await expect(page.getByRole("heading", { level: 2, name: t("receipt.title") })).toBeVisible();
  await expect(page.getByRole("link", { name: t("receipt.download") })).toBeVisible();
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`SATIM from the checkout in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);

    test(`pays with CIB on SATIM's page after terms and anti-bot check, stays on the return page (${locale})`, async ({
      page,
    }) => {
      const target = `${merchantSite()}/orders/satim-${locale}`;
      const { shop, paymentId } = await toPageBeforeSatim(page, locale, { returnUrl: target, amount: 1250.75 });
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByRole("heading", { level: 1, name: t("redirect.title") })).toBeVisible();
      // The final amount, emphasized with its currency, under "Amount to pay".
      const amount = page.getByRole("definition").filter({ hasText: "DZD" });
      await expect(amount).toContainText(/1,250\.75/);
      await expect(page.getByText(t("redirect.amountLabel"), { exact: true })).toBeVisible();
      const view = beforeSatim(page, locale);
      await expect(view.pay).toBeVisible();
      await expect(view.pay.getByRole("img", { name: t("redirect.logoAlt") })).toBeVisible();
      if (locale === "en") await expect(view.pay).toHaveAccessibleName(/^Pay /);
      await expect(view.termsLink).toHaveAttribute("href", TERMS_URL);
      await expect(view.termsLink).toHaveAttribute("target", "_blank");
      // With script the island solves the proof of work and the code field goes away.
      await expect(view.antiBotPassed).toBeVisible({ timeout: 20_000 });
      await expect(view.code).toBeHidden();
      await shot(page, `before-satim-${locale}`);
      await expectNoSeriousViolations(page, `before SATIM (${locale})`);

      // The server decides, not the browser: the box's `required` taken away, Pay comes back refused.
      await view.terms.evaluate((box) => box.removeAttribute("required"));
      await view.pay.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}\\?.*notice=terms_required`));
      await expect(view.terms).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert").filter({ hasText: t("paymentTerms.required") })).toBeVisible();
      await shot(page, `terms-refused-${locale}`);
      await expectNoSeriousViolations(page, `terms refused (${locale})`);

      await view.terms.check();
      await expect(view.antiBotPassed).toBeVisible({ timeout: 20_000 });
      await view.pay.click();
      await payOnSatimPage(page, locale, `satim-page-${locale}`);

      await expectSatimReturnPage(page, locale, paymentId);
      const back = page.getByRole("link", { name: t("return.continue", { merchant: shop.name }) });
      await expect(back).toHaveAttribute("href", `${target}?paymentId=${paymentId}&statusCode=2`);
      if (locale === "en") await expect(back).toHaveAccessibleName(/^Return to /);
      // Contract 15: the page does not move on by itself (the others leave after 3 seconds).
      await page.waitForTimeout(4_000);
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/return/${paymentId}`));
      await shot(page, `return-${locale}`);
      await expectNoSeriousViolations(page, `return after SATIM (${locale})`);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
    });

    test(`Cancel on SATIM's page fails the payment (${locale})`, async ({ page }) => {
      const { shop, paymentId } = await toPageBeforeSatim(page, locale, { amount: 300 });
      const view = beforeSatim(page, locale);
      await view.terms.check();
      await expect(view.antiBotPassed).toBeVisible({ timeout: 20_000 });
      await view.pay.click();
      await page.getByRole("button", { name: locale === "ar" ? "إلغاء" : "Cancel", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
      // SATIM's support is there whatever the outcome.
      await expect(page.getByRole("region", { name: t("providerSupport.heading") }).locator("bdi[dir=ltr]")).toHaveText(
        "3020",
      );
      await shot(page, `canceled-${locale}`);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
    });
  });

  test.describe(`SATIM without JavaScript in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const t = checkoutText(locale);

    test(`types the image's code: a wrong one is refused, the sandbox's passes and SATIM is paid (${locale})`, async ({
      page,
    }) => {
      const { shop, paymentId } = await toPageBeforeSatim(page, locale, { amount: 2400 });
      const view = beforeSatim(page, locale);
      await expect(view.antiBot.getByRole("img", { name: t("antiBot.codeImage") })).toBeVisible();
      await expect(view.code).toBeVisible();
      await expect(view.antiBot).toContainText(SANDBOX_ANTI_BOT_CODE);
      await expect(view.pay.getByRole("img", { name: t("redirect.logoAlt") })).toBeVisible();
      await expect(view.termsLink).toHaveAttribute("href", TERMS_URL);
      await shot(page, `before-satim-noscript-${locale}`);

      await view.terms.check();
      await view.code.fill("000000");
      await view.pay.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/redirect/${paymentId}\\?.*notice=anti_bot_failed`));
      await expect(view.code).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert").filter({ hasText: t("antiBot.failed") })).toBeVisible();
      await shot(page, `anti-bot-refused-noscript-${locale}`);

      await view.terms.check();
      await view.code.fill(SANDBOX_ANTI_BOT_CODE);
      await view.pay.click();
      await payOnSatimPage(page, locale, `satim-page-noscript-${locale}`);
      await expectSatimReturnPage(page, locale, paymentId);
      await shot(page, `return-noscript-${locale}`);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
    });
  });
}
