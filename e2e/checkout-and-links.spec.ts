import type { Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/accessibility";
import { CARDS, cardPage, enterCard, nextRuntimeIn, text } from "./support/cards";
import { SANDBOX_OTP } from "./support/env";
import { expect, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite } from "./support/gateway";
import {
  buyerPhone,
  checkoutText,
  createLink,
  deactivateLink,
  disableMethods,
  getLink,
  intentCheckout,
  methodChoice,
} from "./support/links";
import { onboardMerchant } from "./support/onboard";
import type { PageLocale } from "./support/messages";
import { formatAmount } from "../lib/i18n/format-amount";

// Contract 14: the hosted checkout (the buyer chooses the method) and payment links, in English
// and in Arabic (right to left), the browser's Accept-Language choosing the language.

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-DZ" };

async function confirmOtp(page: Page, locale: PageLocale) {
  const t = checkoutText(locale);
  await expect(page.getByRole("heading", { level: 1, name: t("otp.title") })).toBeVisible();
  await page.getByLabel(t("otp.codeLabel"), { exact: true }).fill(SANDBOX_OTP);
  await page.getByRole("button", { name: t("otp.confirm"), exact: true }).click();
}

/** The return page's outcome, then the merchant's page with paymentId and statusCode (contract 8). */
async function expectReturn(page: Page, locale: PageLocale, target: string, paymentId: string) {
  await expect(page.getByRole("heading", { level: 1, name: checkoutText(locale)("return.successful") })).toBeVisible();
  await page.waitForURL((url) => `${url.origin}${url.pathname}` === target, { timeout: 8_000 });
  const landed = new URL(page.url());
  expect(landed.searchParams.get("paymentId")).toBe(paymentId);
  expect(landed.searchParams.get("statusCode")).toBe("2");
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`checkout and payment links in ${locale}`, () => {
    test.use({ locale: BROWSER_LOCALE[locale] });
    const t = checkoutText(locale);

    test(`the checkout page by wallet returns to the merchant (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/checkout-wallet-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, { returnUrl: target });
      const opened = await page.goto(url);
      // Served at the checkoutUrl itself in the buyer's language: no redirect hop (issue 42).
      expect(opened?.request().redirectedFrom()).toBeNull();
      await expect(page).toHaveURL(new RegExp(`^https?://[^/]+/pay/checkout/${paymentId}\\?`));
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByRole("heading", { level: 1, name: t("checkout.title") })).toBeVisible();
      await expect(page.getByText("Souk Atlas", { exact: true })).toBeVisible();
      const choice = methodChoice(page, locale);
      // A DZA merchant of the sandbox is offered the wallet, the card provider, SATIM and Chargily (issue 43).
      await expect(choice.group.getByRole("radio")).toHaveCount(4);
      await expectNoSeriousViolations(page, `checkout-${locale}`);
      expect(await nextRuntimeIn(page)).toEqual([]);
      await choice.wallet.check();
      await choice.continue.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/otp/${paymentId}`));
      await confirmOtp(page, locale);
      await expectReturn(page, locale, target, paymentId);
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
    });

    test(`the checkout page by card returns to the merchant (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/checkout-card-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, { returnUrl: target });
      await page.goto(url);
      const choice = methodChoice(page, locale);
      await choice.card.check();
      await choice.continue.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/card/${paymentId}`));
      await expect(page.getByRole("heading", { level: 1, name: text(locale, "card.title") })).toBeVisible();
      await expect(cardPage(page, locale).pay).toBeEnabled();
      await enterCard(page, locale, CARDS.visa);
      await cardPage(page, locale).pay.click();
      await expectReturn(page, locale, target, paymentId);
    });

    test(`a QR_CODE intent's checkout goes straight to its QR page (${locale})`, async ({ page }) => {
      const { paymentId, url } = await intentCheckout(merchant("shared"), { transactionType: "QR_CODE" });
      await page.goto(url);
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/qr/${paymentId}`));
      await expect(page.getByRole("heading", { level: 1, name: t("qr.title") })).toBeVisible();
      await expect(page.getByRole("img", { name: t("qr.imageAlt") })).toBeVisible();
    });

    test(`a fixed-amount link paid by wallet (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const link = await createLink(shop, {
        title: `Sac en cuir ${locale}`,
        description: "Fait main à Tlemcen",
        amount: 2500,
        locale: "fr",
      });
      const response = await page.goto(link.url);
      expect(response?.status()).toBe(200);
      // Served at the link's url itself in the buyer's language: no redirect hop (issue 42).
      expect(response?.request().redirectedFrom()).toBeNull();
      await expect(page).toHaveURL(new RegExp(`^https?://[^/]+/l/${link.id}$`));
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1, name: link.title })).toBeVisible();
      await expect(page.getByText("Fait main à Tlemcen")).toBeVisible();
      await expect(page.getByText(t("paymentLink.payTo", { merchant: "Souk Atlas" }))).toBeVisible();
      // Open Graph in the link's own language (fr), whatever the page's.
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", link.title);
      const frenchAmount = formatAmount({ amount: 2500, currency: "DZD", locale: "fr" });
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
        "content",
        `Payer ${frenchAmount} à Souk Atlas`,
      );
      const phone = page.getByLabel(t("paymentLink.phoneLabel"), { exact: true });
      await expect(phone).toHaveValue("+213");
      await expectNoSeriousViolations(page, `link-fixed-${locale}`);
      expect(await nextRuntimeIn(page)).toEqual([]);
      await phone.fill(buyerPhone());
      await methodChoice(page, locale).wallet.check();
      await methodChoice(page, locale).continue.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/otp/`));
      await confirmOtp(page, locale);
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await expect.poll(async () => (await getLink(shop, link.id)).paymentsCount).toBe(1);
    });

    test(`a fixed-amount link paid by card (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const link = await createLink(shop, { title: `Card link ${locale}`, amount: 990.5 });
      await page.goto(link.url);
      await page.getByLabel(t("paymentLink.phoneLabel"), { exact: true }).fill(buyerPhone());
      await methodChoice(page, locale).card.check();
      await methodChoice(page, locale).continue.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/pay/card/`));
      await expect(cardPage(page, locale).pay).toBeEnabled();
      await enterCard(page, locale, CARDS.mastercard);
      await cardPage(page, locale).pay.click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await expect.poll(async () => (await getLink(shop, link.id)).succeededAmount).toBe(990.5);
    });

    test(`an open-amount link holds the buyer to its bounds, then takes the payment (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const link = await createLink(shop, { title: `Donation ${locale}`, minAmount: 100, maxAmount: 5000 });
      await page.goto(link.url);
      const amount = page.getByLabel(t("paymentLink.amountLabel"), { exact: true });
      await expectNoSeriousViolations(page, `link-open-${locale}`);
      await amount.fill("50");
      await page.getByLabel(t("paymentLink.phoneLabel"), { exact: true }).fill(buyerPhone());
      await methodChoice(page, locale).continue.click();
      // Refused on the server, said beside the field, what was typed kept.
      const amountAgain = page.getByLabel(t("paymentLink.amountLabel"), { exact: true });
      await expect(amountAgain).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert")).toContainText(/100/);
      await expect(amountAgain).toHaveValue("50");
      await amountAgain.fill("150.25");
      await methodChoice(page, locale).wallet.check();
      await methodChoice(page, locale).continue.click();
      await confirmOtp(page, locale);
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await expect.poll(async () => (await getLink(shop, link.id)).succeededAmount).toBe(150.25);
    });

    test(`a closed link answers 410 with a page saying so (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const link = await createLink(shop, { title: `Closed ${locale}`, amount: 10 });
      await deactivateLink(shop, link.id);
      const response = await page.goto(link.url);
      expect(response?.status()).toBe(410);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1, name: t("paymentLink.closedTitle") })).toBeVisible();
      await expectNoSeriousViolations(page, `link-closed-${locale}`);
      // The page under a language's path answers the same.
      const direct = await page.goto(`/${locale}/l/${link.id}`);
      expect(direct?.status()).toBe(410);
    });
  });
}

test.describe("a link no payment method can pay", () => {
  test("says, in English, French and Arabic, that it cannot be paid now, and offers no form", async ({ page }) => {
    const shop = await onboardMerchant({ name: `Closed Methods Shop ${Date.now()}` });
    await disableMethods(shop, "DZA");
    const link = await createLink(shop, { title: "Nothing to pay with", amount: 10 });
    for (const locale of ["en", "fr", "ar"] as const) {
      const t = checkoutText(locale);
      await page.goto(`/${locale}/l/${link.id}`);
      await expect(page.getByRole("heading", { level: 1, name: "Nothing to pay with" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText(t("paymentLink.noMethods", { merchant: shop.name }));
      await expect(page.getByLabel(t("paymentLink.phoneLabel"), { exact: true })).toHaveCount(0);
      await expect(methodChoice(page, locale).continue).toHaveCount(0);
    }
  });
});

test.describe("the checkout page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const locale of ["en", "ar"] as const) {
    test(`pays by wallet and returns to the merchant (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/no-script-checkout-${locale}`;
      const { paymentId, url } = await intentCheckout(shop, { returnUrl: target });
      await page.goto(url.replace("/pay/checkout/", `/${locale}/pay/checkout/`));
      await methodChoice(page, locale).wallet.check();
      await methodChoice(page, locale).continue.click();
      await confirmOtp(page, locale);
      await expect(
        page.getByRole("heading", { level: 1, name: checkoutText(locale)("return.successful") }),
      ).toBeVisible();
      await page.waitForURL(`${target}?paymentId=${paymentId}&statusCode=2`, { timeout: 8_000 });
    });
  }

  test("a payment link is paid by wallet, an amount refused and corrected on the way (ar)", async ({ page }) => {
    const shop = merchant("shared");
    const link = await createLink(shop, { title: "No script link", minAmount: 20 });
    const t = checkoutText("ar");
    await page.goto(`/ar/l/${link.id}`);
    await page.getByLabel(t("paymentLink.amountLabel"), { exact: true }).fill("٥");
    await page.getByLabel(t("paymentLink.phoneLabel"), { exact: true }).fill(buyerPhone());
    await methodChoice(page, "ar").continue.click();
    await expect(page.getByRole("alert")).toHaveText(
      t("paymentLink.amountBelowMin", { min: formatAmount({ amount: 20, currency: "DZD", locale: "ar" }) }),
    );
    await page.getByLabel(t("paymentLink.amountLabel"), { exact: true }).fill("٢٥");
    await methodChoice(page, "ar").continue.click();
    await confirmOtp(page, "ar");
    await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
    await expect.poll(async () => (await getLink(shop, link.id)).succeededAmount).toBe(25);
  });
});

test.describe("the checkout and link pages' standards", () => {
  test("forbid framing and caching; their forms refuse a post from another site or without the form token", async ({
    page,
  }) => {
    const shop = merchant("shared");
    const { paymentId, url } = await intentCheckout(shop);
    const link = await createLink(shop, { title: "Guarded", amount: 10 });
    const closed = await createLink(shop, { title: "Closed guarded", amount: 10 });
    await deactivateLink(shop, closed.id);
    for (const address of [
      url.replace("/pay/checkout/", "/en/pay/checkout/"),
      `/en/l/${link.id}`,
      `/en/l/${closed.id}/closed`,
    ]) {
      const response = await page.request.get(address, {
        headers: { "sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site" },
      });
      const headers = response.headers();
      expect(headers["x-frame-options"], address).toBe("DENY");
      expect(headers["content-security-policy"], address).toContain("frame-ancestors 'none'");
      expect(headers["cache-control"], address).toContain("no-store");
    }

    await page.goto(url);
    const checkoutForm = page.locator("form[method=post]");
    const fields = Object.fromEntries(
      await checkoutForm
        .locator("input[type=hidden]")
        .evaluateAll((inputs) =>
          inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
        ),
    ) as Record<string, string>;
    const action = await checkoutForm.getAttribute("action");
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      page.request.post(action!, { form, headers, maxRedirects: 0 });
    expect(
      (
        await post(
          { ...fields, method: "WALLET_V2" },
          { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
        )
      ).status(),
    ).toBe(403);
    expect((await post({ token: fields.token!, method: "WALLET_V2" })).status()).toBe(403);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(1);
    // The page's own post goes through: on to the OTP page.
    const genuine = await post({ ...fields, method: "WALLET_V2" });
    expect(genuine.status()).toBe(303);
    expect(genuine.headers().location).toMatch(new RegExp(`^/en/pay/otp/${paymentId}\\?token=`));

    await page.goto(`/en/l/${link.id}`);
    const linkForm = page.locator("form[method=post]");
    const linkFields = Object.fromEntries(
      await linkForm
        .locator("input[type=hidden]")
        .evaluateAll((inputs) =>
          inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
        ),
    ) as Record<string, string>;
    const linkAction = await linkForm.getAttribute("action");
    const forged = await page.request.post(linkAction!, {
      form: { ...linkFields, phone: buyerPhone(), method: "WALLET_V2" },
      headers: { "sec-fetch-site": "cross-site" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await getLink(shop, link.id)).paymentsCount).toBe(0);
  });
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const locale of ["en", "fr", "ar"] as const) {
    test(`the checkout and link pages never scroll sideways (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const { url } = await intentCheckout(shop);
      const link = await createLink(shop, {
        title: "Coffret de six savons artisanaux à l'huile d'argan, parfum fleur d'oranger",
        description: "Livraison partout au Maroc et en Algérie sous 72 heures.",
        minAmount: 100,
        maxAmount: 25_000,
      });
      for (const address of [url.replace("/pay/checkout/", `/${locale}/pay/checkout/`), `/${locale}/l/${link.id}`]) {
        await page.goto(address);
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth, address).toBeLessThanOrEqual(clientWidth);
      }
    });
  }
});
