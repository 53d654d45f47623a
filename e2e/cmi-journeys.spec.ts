import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import postgres from "postgres";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import { checkoutText, createLink, getLink, intentCheckout, methodChoice } from "./support/links";
import { consoleMessagesFor, consolePaymentsText, rollSecret, signUp } from "./support/console";
import { E2E_DATABASE_URL } from "./support/env";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";
import type { PageLocale } from "./support/messages";

// Issue 44: a MAD checkout and a MAD payment link paid with CMI on a phone, in English, French
// and Arabic: the page before CMI's (its Pay button posts the form signed on the server straight
// to CMI's gate), CMI's (simulated) 3D Pay Hosting page, the return page, and the link's payment
// in the console with CMI's order number and authorization code; the same without JavaScript; a
// declined card and Cancel.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-MA" };

const CMI_PAGE = {
  en: {
    cardNumber: "Card number",
    expiry: "Expiry date",
    cvc: "CVC",
    pay: /^Pay/,
    cancel: "Cancel",
    back: "Back to the merchant's site",
  },
  fr: {
    cardNumber: "Numéro de carte",
    expiry: "Date d'expiration",
    cvc: "CVC",
    pay: /^Payer/,
    cancel: "Annuler",
    back: "Retour au site marchand",
  },
  ar: {
    cardNumber: "رقم البطاقة",
    expiry: "تاريخ انتهاء الصلاحية",
    cvc: "رمز CVC",
    pay: /^ادفع/,
    cancel: "إلغاء",
    back: "العودة إلى موقع التاجر",
  },
} as const;

/** CMI's page after the attempt: its button posts CMI's answer fields with the buyer back to the gateway. */
async function backFromCmi(page: Page, locale: PageLocale) {
  await page.getByRole("button", { name: CMI_PAGE[locale].back, exact: true }).click();
}

async function shot(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const path = `test-results/cmi/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}

/** A Moroccan mobile number, as a buyer of a MAR link types it. */
const moroccanPhone = () => `+2126${randomInt(10_000_000, 99_999_999)}`;

/** The authorization code CMI's (simulated) platform itself gave the order `oid`. */
async function cmiAuthCode(oid: string): Promise<string | null> {
  const sql = postgres(E2E_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<
      { auth_code: string | null }[]
    >`select auth_code from simulators.cmi_orders where oid = ${oid}`;
    return row?.auth_code ?? null;
  } finally {
    await sql.end();
  }
}

/** The value the console's payment detail shows beside `term`. */
const detailValue = (page: Page, term: string) =>
  page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) })
    .locator("dd");

async function payOnCmiPage(page: Page, locale: PageLocale, cardNumber = "4242 4242 4242 4242") {
  const words = CMI_PAGE[locale];
  await page.getByLabel(words.cardNumber, { exact: true }).fill(cardNumber);
  await page.getByLabel(words.expiry, { exact: true }).fill("12/34");
  await page.getByLabel(words.cvc, { exact: true }).fill("123");
}

for (const locale of ["en", "fr", "ar"] as const) {
  test.describe(`CMI from a MAD checkout in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } });
    const t = checkoutText(locale);
    const words = CMI_PAGE[locale];
    const payButton = (page: Page) =>
      page.getByRole("button", { name: new RegExp(`^${t("redirect.pay", { amount: "" }).trim()}`) });

    test(`pays 123.45 MAD on CMI's page and stays on the return page (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/cmi-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, {
        returnUrl: target,
        amount: 123.45,
        country: "MAR",
        currency: "MAD",
      });
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

    test(`a MAD link paid with CMI; the console shows its order number and authorization code (${locale})`, async ({
      page,
      browser,
    }) => {
      // The merchant signs up in the console (a sandbox merchant of all three countries) and makes a MAR link
      // through the API with its keys.
      const tc = consoleMessagesFor(locale);
      const tp = consolePaymentsText(locale);
      await signUp(page, { locale });
      await rollSecret(page, "client", locale);
      const clientId = await page.getByLabel(tc("developers.clientId"), { exact: true }).inputValue();
      const clientSecret = await page.getByLabel(tc("developers.newSecret"), { exact: true }).inputValue();
      const shop = { clientId, clientSecret, service: clientId.split(".")[1]! } as OnboardedMerchant;
      const link = await createLink(shop, {
        title: `CMI link ${locale}`,
        amount: 250.75,
        currency: "MAD",
        countryCode: "MAR",
      });

      const buyer = await (
        await browser.newContext({ locale: BROWSER_LOCALE[locale], viewport: { width: 390, height: 844 } })
      ).newPage();
      await buyer.goto(link.url);
      await expect(buyer.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await buyer.getByLabel(t("paymentLink.phoneLabel"), { exact: true }).fill(moroccanPhone());
      const choice = methodChoice(buyer, locale);
      await choice.cmi.check();
      await shot(buyer, `link-${locale}`);
      await choice.continue.click();

      await expect(buyer).toHaveURL(new RegExp(`/${locale}/pay/redirect/`));
      await expect(buyer.getByText(t("redirect.introCmi"))).toBeVisible();
      await shot(buyer, `link-before-cmi-${locale}`);
      await payButton(buyer).click();
      await expect(buyer).toHaveURL(/\/api\/cmi-sandbox\/fim\/est3Dgate$/);
      await expect(buyer.locator(".amount")).toHaveText("250.75 MAD");
      await payOnCmiPage(buyer, locale);
      await buyer.getByRole("button", { name: words.pay }).click();
      await backFromCmi(buyer, locale);

      await expect(buyer).toHaveURL(new RegExp(`/${locale}/pay/return/[0-9a-f-]+`));
      await expect(buyer.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await shot(buyer, `link-return-${locale}`);
      const paymentId = new URL(buyer.url()).pathname.split("/").pop()!;
      await buyer.close();
      await expect.poll(async () => (await getLink(shop, link.id)).succeededAmount).toBe(250.75);

      // The owner's console: the link's payment succeeded, with the number and code CMI gave.
      await page.goto(`/${locale}/console/payments/${paymentId}`);
      await expect(detailValue(page, tp("detail.status"))).toHaveText(tp("status.SUCCEEDED"));
      await expect(detailValue(page, tp("list.paymentLink"))).toHaveText(`CMI link ${locale}`);
      const oid = (await detailValue(page, tp("detail.providerOrderId")).innerText()).trim();
      expect(oid).toMatch(/^[0-9A-F]{20}D$/);
      const code = await cmiAuthCode(oid);
      expect(code).toMatch(/^\S+$/);
      await expect(detailValue(page, tp("detail.authorizationCode"))).toHaveText(code!);
      await shot(page, `console-link-payment-${locale}`);
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

  test("the page before CMI's posts the signed form with a plain button, and the payment succeeds", async ({
    page,
  }) => {
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

  test("the buyer's card is pre-authorized at CMI, the owner captures 199.99 of 300.00 MAD", async ({
    page,
    browser,
  }) => {
    const t = checkoutText("en");
    await signUp(page);
    await rollSecret(page, "client");
    const clientId = await page.getByLabel("Client id").inputValue();
    const clientSecret = await page.getByLabel("New secret").inputValue();
    const shop = { clientId, clientSecret, service: clientId.split(".")[1]! } as OnboardedMerchant;
    const { paymentId, url } = await intentCheckout(shop, {
      amount: 300,
      country: "MAR",
      currency: "MAD",
      captureMethod: "RESERVATION",
    });

    const buyer = await (
      await browser.newContext({ locale: "en-US", viewport: { width: 390, height: 844 } })
    ).newPage();
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
