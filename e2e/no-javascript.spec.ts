import type { Page } from "@playwright/test";
import { CARDS, cardPage, enterCard, startCardPayment } from "./support/cards";
import { SANDBOX_OTP } from "./support/env";
import { expect, test } from "./support/fixtures";
import {
  advanceClock,
  checkPayment,
  merchant,
  merchantSite,
  startWalletPayment,
  withReturnUrl,
} from "./support/gateway";
import { messagesFor, type PageLocale } from "./support/messages";
import { startQrPayment, walletApp } from "./support/qr";

// Issue 16: every hosted form is a plain HTML form post, so a buyer whose script never
// loads, or who taps before it has run, still pays.

const LOCALES: PageLocale[] = ["en", "fr", "ar"];
const X_LOCALE: Record<PageLocale, string> = { en: "en_US", fr: "fr_FR", ar: "ar_DZ" };

/** The 3DS page of a fresh 3DS card payment, reached the way a buyer does (the card page needs script). */
async function challengeUrl(page: Page, locale: PageLocale, redirectUrl: string) {
  const shop = merchant("shared");
  const { paymentId, payUrl } = await startCardPayment(shop, { xLocale: X_LOCALE[locale], redirectUrl });
  await page.goto(payUrl);
  await enterCard(page, locale, CARDS.threeDSecure);
  await cardPage(page, locale).pay.click();
  await page.waitForURL(/\/card-provider-sandbox\/challenge\/pi_/);
  return { shop, paymentId, url: page.url() };
}

/** The sandbox wallet app's address for a fresh QR payment. */
async function walletAppUrl(page: Page, locale: PageLocale) {
  const shop = merchant("shared");
  const { paymentId, qrPageUrl } = await startQrPayment(shop, { xLocale: X_LOCALE[locale] });
  await page.goto(qrPageUrl);
  const href = await page
    .getByRole("link", { name: messagesFor(locale)("qr.openWalletApp"), exact: true })
    .getAttribute("href");
  return { shop, paymentId, qrPageUrl, url: new URL(href!, page.url()).toString() };
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const locale of LOCALES) {
    const t = messagesFor(locale);

    test(`OTP: a wrong code counts down, the right one pays, the return page moves on by itself (${locale})`, async ({
      page,
    }) => {
      const shop = merchant("shared");
      const { paymentId, payUrl } = await startWalletPayment(shop, { xLocale: X_LOCALE[locale] });
      const returnUrl = `${merchantSite()}/no-script/${locale}`;
      await page.goto(withReturnUrl(payUrl, returnUrl));
      const code = page.getByLabel(t("otp.codeLabel"), { exact: true });
      const confirm = page.getByRole("button", { name: t("otp.confirm"), exact: true });

      await code.fill("000000");
      await confirm.click();
      await expect(page.getByRole("alert").filter({ hasText: t("otp.wrongCode", { attemptsLeft: 4 }) })).toBeVisible();
      await expect(code).toBeFocused();
      await expect(code).toHaveValue("");
      // The form's answer is a page of its own: the URL names the payment, never the code.
      expect(page.url()).not.toContain("000000");

      await code.fill(SANDBOX_OTP);
      await confirm.click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      await page.waitForURL(`${returnUrl}?paymentId=${paymentId}&statusCode=2`, { timeout: 8_000 });
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
    });

    test(`3DS: Complete and Fail answer as plain posts (${locale})`, async ({ browser }) => {
      // The card page needs script; the 3DS page it leads to must not.
      const scripted = await browser.newContext({ javaScriptEnabled: true });
      const withScript = await scripted.newPage();
      const complete = await challengeUrl(withScript, locale, `${merchantSite()}/no-script/3ds-ok-${locale}`);
      const fail = await challengeUrl(withScript, locale, `${merchantSite()}/no-script/3ds-fail-${locale}`);
      await scripted.close();
      const context = await browser.newContext({ javaScriptEnabled: false, locale: "en-US" });
      const page = await context.newPage();

      await page.goto(complete.url);
      await expect(page.getByText("Souk Atlas")).toBeVisible();
      await page.getByRole("button", { name: t("challenge.complete"), exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();
      expect((await checkPayment(complete.shop, complete.paymentId)).statusCode).toBe(2);

      await page.goto(fail.url);
      await page.getByRole("button", { name: t("challenge.fail"), exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
      expect((await checkPayment(fail.shop, fail.paymentId)).statusCode).toBe(3);
      await context.close();
    });

    test(`wallet app: approve and decline, and the QR page follows by reloading itself (${locale})`, async ({
      page,
    }) => {
      const approved = await walletAppUrl(page, locale);
      await page.goto(approved.url);
      await walletApp(page, locale).approve.click();
      await expect(walletApp(page, locale).heading("wallet.approvedTitle")).toBeVisible();
      expect((await checkPayment(approved.shop, approved.paymentId)).statusCode).toBe(2);
      // The QR page has no script to poll with: it reloads and lands on the outcome.
      await page.goto(approved.qrPageUrl);
      await expect(page.getByRole("heading", { level: 1, name: t("return.successful") })).toBeVisible();

      const declined = await walletAppUrl(page, locale);
      await page.goto(declined.qrPageUrl);
      const phone = await page.context().newPage();
      await phone.goto(declined.url);
      await walletApp(phone, locale).decline.click();
      await expect(walletApp(phone, locale).heading("wallet.declinedTitle")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible({ timeout: 12_000 });
      expect((await checkPayment(declined.shop, declined.paymentId)).statusCode).toBe(3);
    });
  }

  test("OTP: resend waits out its cooldown on the server, then sends; an expired payment says so", async ({ page }) => {
    const t = messagesFor("fr");
    const shop = merchant("clockNoScript");
    const { paymentId, payUrl } = await startWalletPayment(shop, { xLocale: "fr_FR" });
    await page.goto(payUrl);
    const resend = page.getByRole("button", { name: t("otp.resend"), exact: true });
    // Without script the button cannot count down: it stays usable and the server holds the line.
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(page.getByRole("status").filter({ hasText: t("otp.resendTooSoon") })).toBeVisible();

    await advanceClock(shop, 31);
    await resend.click();
    await expect(page.getByRole("status").filter({ hasText: t("otp.resent") })).toBeVisible();
    await expect(page.getByLabel(t("otp.codeLabel"), { exact: true })).toBeFocused();

    await advanceClock(shop, 31 * 60);
    await page.getByLabel(t("otp.codeLabel"), { exact: true }).fill(SANDBOX_OTP);
    await page.getByRole("button", { name: t("otp.confirm"), exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: t("return.failed") })).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
  });

  test("the return page's Stay on this page holds the buyer there without script", async ({ page }) => {
    const shop = merchant("shared");
    const { payUrl } = await startWalletPayment(shop, { xLocale: "en_US" });
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/no-script/stay`));
    await page.getByLabel("Verification code", { exact: true }).fill(SANDBOX_OTP);
    await page.getByRole("button", { name: "Confirm payment", exact: true }).click();
    await page.getByRole("button", { name: "Stay on this page" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "You can return to Souk Atlas whenever you like." }),
    ).toBeVisible();
    // Well past the move's delay, the buyer is still on the return page, with the link to go.
    await page.waitForTimeout(4_000);
    await expect(page).toHaveURL(/\/pay\/return\/.*stay=1/);
    await expect(page.getByRole("link", { name: "Return to Souk Atlas now" })).toBeVisible();
  });

  test("the card page says card entry needs JavaScript and offers the way back", async ({ page }) => {
    const t = messagesFor("fr");
    const { payUrl } = await startCardPayment(merchant("shared"), {
      xLocale: "fr_FR",
      redirectUrl: `${merchantSite()}/no-script/card`,
    });
    await page.goto(payUrl);
    // Playwright's text and role locators skip <noscript>; a CSS locator reaches what the buyer sees.
    await expect(page.locator("noscript p").first()).toHaveText(t("card.noScriptTitle"));
    await expect(page.locator("noscript a")).toHaveText(t("card.noScriptBack", { merchant: "Souk Atlas" }));
    await page.locator("noscript a").click();
    await page.waitForURL((url) => url.origin === merchantSite() && url.pathname === "/no-script/card");
  });
});

test.describe("clicked before the page's script has run", () => {
  /**
   * Holds every script of the page back (Next's chunks, and the islands of a page without them), so the
   * buyer's click lands before any runs.
   */
  async function delayScripts(page: Page) {
    await page.route(/\/(_next\/static|islands)\/.*\.js/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await route.continue().catch(() => undefined);
    });
  }

  test("OTP confirm", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop);
    await delayScripts(page);
    await page.goto(payUrl, { waitUntil: "commit" });
    await page.getByLabel("Verification code").fill(SANDBOX_OTP);
    await page.getByRole("button", { name: "Confirm payment" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });

  test("3DS Complete", async ({ page }) => {
    const { shop, paymentId, url } = await challengeUrl(page, "en", `${merchantSite()}/early/3ds`);
    await delayScripts(page);
    await page.goto(url, { waitUntil: "commit" });
    await page.getByRole("button", { name: "Complete", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });

  test("wallet app approve", async ({ page }) => {
    const { shop, paymentId, url } = await walletAppUrl(page, "en");
    await delayScripts(page);
    await page.goto(url, { waitUntil: "commit" });
    await walletApp(page).approve.click();
    await expect(walletApp(page).heading("wallet.approvedTitle")).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });
});

test.describe("a forged post from another site", () => {
  test("is refused with or without the page's form token, and the payment is untouched", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop);
    const token = new URL(payUrl).searchParams.get("token")!;
    const action = new URL(`/en/pay/otp/${paymentId}/confirm`, payUrl).toString();
    // Even one who holds the link and read the form token off the page cannot post from elsewhere.
    const formToken = await (
      await page.request.get(payUrl)
    )
      .text()
      .then((html) => /name="formToken" value="([^"]+)"/.exec(html)?.[1]);
    expect(formToken).toBeTruthy();

    for (const fields of [
      { token, code: SANDBOX_OTP },
      { token, code: SANDBOX_OTP, formToken: formToken! },
    ]) {
      await page.goto(`${merchantSite()}/shop`);
      await page.evaluate(
        ({ action, fields }) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = action;
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        },
        { action, fields },
      );
      await expect(
        page.getByRole("heading", { level: 1, name: "This form was not sent from the payment page" }),
      ).toBeVisible();
      expect((await checkPayment(shop, paymentId)).statusCode).toBe(12);
    }

    // A script without a browser's Sec-Fetch-Site still needs the form token.
    const scripted = await page.request.post(action, { form: { token, code: SANDBOX_OTP }, maxRedirects: 0 });
    expect(scripted.status()).toBe(403);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(12);
  });
});
