import type { Page } from "@playwright/test";
import { capture, expectNoSeriousViolations } from "./support/accessibility";
import {
  capturePayment,
  cardDataIn,
  cardDataInDatabase,
  cardPage,
  CARDS,
  checkCardPayment,
  enterCard,
  expectNoNextRuntime,
  nextRuntimeIn,
  serverLog,
  startCardPayment,
  text,
  type Language,
} from "./support/cards";
import { expect, test } from "./support/fixtures";
import { merchant, merchantSite } from "./support/gateway";

// The last test scans the database and the server log for card data the journeys entered,
// so this file runs in order, on one worker, and that scan comes after every journey.
test.describe.configure({ mode: "serial" });

const X_LOCALE: Record<Language, string> = { en: "en_US", fr: "fr_FR", ar: "ar_DZ" };

/** The return page's heading, then the merchant's page with paymentId and statusCode (contract 8). */
async function expectOutcome(
  page: Page,
  locale: Language,
  heading: string,
  target: string,
  paymentId: string,
  statusCode: number,
) {
  await expect(page.getByRole("heading", { level: 1, name: text(locale, `return.${heading}`) })).toBeVisible();
  await page.waitForURL((url) => url.origin === merchantSite(), { timeout: 6_000 });
  const landed = new URL(page.url());
  expect(`${landed.origin}${landed.pathname}`).toBe(target);
  expect(landed.searchParams.get("paymentId")).toBe(paymentId);
  expect(landed.searchParams.get("statusCode")).toBe(String(statusCode));
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`card journeys in ${locale}`, () => {
    test(`a new card is saved, then the buyer pays again with it (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/card-${locale}`;
      const first = await startCardPayment(shop, { xLocale: X_LOCALE[locale], redirectUrl: target });
      await page.goto(first.payUrl);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1, name: text(locale, "card.title") })).toBeVisible();
      await expect(page.getByText("Souk Atlas")).toBeVisible();
      const form = cardPage(page, locale);
      // No saved card yet: the new card's fields are there at once, no radio to pick.
      await expect(form.newCard).toHaveCount(0);
      // Pay turns enabled once the provider's script has loaded: the page as the buyer uses it.
      await expect(form.pay).toBeEnabled();
      await expectNoSeriousViolations(page, `card-new-${locale}`);
      await enterCard(page, locale, CARDS.visa, { save: true });
      await expect(form.number).toHaveValue(CARDS.visa);
      await expect(page.getByText(text(locale, "card.brandDetected", { brand: "Visa" }))).toBeVisible();
      await capture(page, `card-new-${locale}`);
      await expectNoNextRuntime(page);
      await form.pay.click();
      await expectOutcome(page, locale, "successful", target, first.paymentId, 2);
      expect((await checkCardPayment(shop, first.paymentId)).statusCode).toBe(2);

      const second = await startCardPayment(shop, {
        userId: first.userId,
        xLocale: X_LOCALE[locale],
        redirectUrl: target,
      });
      await page.goto(second.payUrl);
      const saved = form.savedCard("Visa", "4242");
      await expect(saved).toBeChecked();
      await expect(form.newCard).not.toBeChecked();
      await expect(form.number).toHaveCount(0);
      await expectNoSeriousViolations(page, `card-saved-${locale}`);
      await capture(page, `card-saved-${locale}`);
      // "New card" shows the fields; going back to the saved card hides them again.
      await form.newCard.check();
      await expect(form.number).toBeVisible();
      await saved.check();
      await expect(form.number).toHaveCount(0);
      await expectNoNextRuntime(page);
      await form.pay.click();
      await expectOutcome(page, locale, "successful", target, second.paymentId, 2);
      expect((await checkCardPayment(shop, second.paymentId)).statusCode).toBe(2);
    });

    test(`a declined card fails the payment (3) (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/declined-${locale}`;
      const { paymentId, payUrl } = await startCardPayment(shop, { xLocale: X_LOCALE[locale], redirectUrl: target });
      await page.goto(payUrl);
      await enterCard(page, locale, CARDS.declined, { save: true });
      await expectNoNextRuntime(page);
      await cardPage(page, locale).pay.click();
      await expectOutcome(page, locale, "failed", target, paymentId, 3);
      expect((await checkCardPayment(shop, paymentId)).statusCode).toBe(3);
    });

    test(`the 3DS challenge completed goes through (2) (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/3ds-${locale}`;
      const { paymentId, payUrl } = await startCardPayment(shop, { xLocale: X_LOCALE[locale], redirectUrl: target });
      await page.goto(payUrl);
      await enterCard(page, locale, CARDS.threeDSecure);
      await expectNoNextRuntime(page);
      await cardPage(page, locale).pay.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/card-provider-sandbox/challenge/pi_`));
      await expect(page.getByRole("heading", { level: 1, name: text(locale, "challenge.title") })).toBeVisible();
      await expect(page.getByText(text(locale, "challenge.card", { brand: "Visa", last4: "3220" }))).toBeVisible();
      await expectNoSeriousViolations(page, `challenge-${locale}`);
      await capture(page, `challenge-${locale}`);
      await page.getByRole("button", { name: text(locale, "challenge.complete"), exact: true }).click();
      await expectOutcome(page, locale, "successful", target, paymentId, 2);
    });

    test(`the 3DS challenge failed rejects the payment (3) (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/3ds-fail-${locale}`;
      const { paymentId, payUrl } = await startCardPayment(shop, { xLocale: X_LOCALE[locale], redirectUrl: target });
      await page.goto(payUrl);
      await enterCard(page, locale, CARDS.threeDSecure);
      await cardPage(page, locale).pay.click();
      await page.waitForURL(/\/card-provider-sandbox\/challenge\/pi_/);
      // Back on the card page mid-3DS: a link to the bank's page, no script at all.
      await page.goto(payUrl);
      await expect(page.getByText(text(locale, "card.verificationPending"))).toBeVisible();
      expect(await nextRuntimeIn(page)).toEqual([]);
      await page.getByRole("link", { name: text(locale, "card.continueVerification"), exact: true }).click();
      await page.getByRole("button", { name: text(locale, "challenge.fail"), exact: true }).click();
      await expectOutcome(page, locale, "failed", target, paymentId, 3);
      expect((await checkCardPayment(shop, paymentId)).statusCode).toBe(3);
    });

    test(`a RESERVATION card payment is authorized (13) and captured afterwards (${locale})`, async ({ page }) => {
      const shop = merchant("shared");
      const target = `${merchantSite()}/orders/reserved-${locale}`;
      const { paymentId, payUrl } = await startCardPayment(shop, {
        captureMethod: "RESERVATION",
        amount: 80.5,
        currency: "MAD",
        country: "MAR",
        xLocale: X_LOCALE[locale],
        redirectUrl: target,
      });
      await page.goto(payUrl);
      await enterCard(page, locale, CARDS.mastercard);
      await expect(page.getByText(text(locale, "card.brandDetected", { brand: "Mastercard" }))).toBeVisible();
      await cardPage(page, locale).pay.click();
      await expectOutcome(page, locale, "authorized", target, paymentId, 13);
      expect((await capturePayment(shop, paymentId, 60)).statusCode).toBe(2);
      expect(await checkCardPayment(shop, paymentId)).toMatchObject({ statusCode: 2, amount: 60 });
    });
  });
}

test("the card page checks number, expiry and CVC before anything leaves the browser", async ({ page }) => {
  const shop = merchant("shared");
  const { payUrl } = await startCardPayment(shop);
  const sentToProvider: string[] = [];
  page.on("request", (request) => {
    // What the page posts to the provider (loading its Stripe.js stand-in sends nothing).
    if (request.method() === "POST" && request.url().includes("/api/card-provider-sandbox/"))
      sentToProvider.push(request.url());
  });
  await page.goto(payUrl);
  const form = cardPage(page);

  await form.pay.click();
  await expect(page.getByRole("alert").filter({ hasText: "Enter the card number." })).toBeVisible();
  await expect(form.number).toBeFocused();

  await enterCard(page, "en", "4242 4242 4242 4241", { expiry: "01/20", cvc: "12" });
  await form.pay.click();
  await expect(form.number).toHaveAccessibleDescription(/This card number is not valid/);
  await expect(form.number).toHaveAttribute("aria-invalid", "true");
  await expect(form.expiry).toHaveAccessibleDescription(/This card has expired/);
  await expect(form.cvc).toHaveAccessibleDescription(/The CVC is 3 digits/);
  await expect(page.getByRole("alert").filter({ hasText: "Please correct the highlighted fields." })).toBeVisible();
  await expect(form.number).toBeFocused();

  await form.number.fill("3782 822463 10005");
  await form.pay.click();
  await expect(form.number).toHaveAccessibleDescription(/Only Visa and Mastercard cards are accepted/);
  await form.expiry.fill("13/30");
  await form.pay.click();
  await expect(form.expiry).toHaveAccessibleDescription(/Enter the expiry date as MM\/YY/);
  expect(sentToProvider).toEqual([]);

  await enterCard(page, "en", CARDS.visa);
  await expect(form.number).not.toHaveAttribute("aria-invalid", "true");
  await form.pay.click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
  expect(sentToProvider).toHaveLength(1);
  // Nothing of the card is left in the page the buyer ends on.
  expect(cardDataIn(await page.content())).toEqual([]);
});

test("the card page and the 3DS page read well in French too (axe, screenshots)", async ({ page }) => {
  const shop = merchant("shared");
  const { payUrl } = await startCardPayment(shop, { xLocale: "fr_FR" });
  await page.goto(payUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Payer par carte" })).toBeVisible();
  await expectNoSeriousViolations(page, "card-new-fr");
  await capture(page, "card-new-fr");
  await enterCard(page, "fr", CARDS.threeDSecure);
  await cardPage(page, "fr").pay.click();
  await expect(page.getByRole("heading", { level: 1, name: "Vérifiez votre paiement" })).toBeVisible();
  await expectNoSeriousViolations(page, "challenge-fr");
  await capture(page, "challenge-fr");
});

test("the card page carries the hosted pages' security headers", async ({ request }) => {
  const { payUrl } = await startCardPayment(merchant("shared"));
  const response = await request.get(payUrl);
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cache-control"]).toContain("no-store");
  expect(headers["x-frame-options"]).toBe("DENY");
  const wrongToken = await request.get(payUrl.replace(/token=[0-9a-f]+/, `token=${"0".repeat(64)}`));
  expect(wrongToken.status()).toBe(404);
});

test("after the journeys, no full card number or CVC is in the database or the server log", async () => {
  expect(await cardDataInDatabase()).toEqual([]);
  const log = serverLog();
  if (log !== null) {
    expect(log.length).toBeGreaterThan(0);
    expect(cardDataIn(log)).toEqual([]);
  }
});
