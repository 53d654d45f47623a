import { SANDBOX_OTP } from "./support/env";
import { expect, freezeTime, hydrated, otpPage, submitCode, test } from "./support/fixtures";
import {
  advanceClock,
  checkPayment,
  merchant,
  merchantSite,
  startWalletPayment,
  withReturnUrl,
} from "./support/gateway";

test.describe("OTP page journeys (contract 8 and 10)", () => {
  test("a DIRECT payment succeeds and ends at the merchant's returnUrl with statusCode=2", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop, { amount: 1250.75, currency: "DZD" });
    const returnUrl = `${merchantSite()}/orders/42/done?ref=A1`;
    await page.goto(withReturnUrl(payUrl, returnUrl));

    await expect(page).toHaveURL(/\/en\/pay\/otp\//);
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your payment" })).toBeVisible();
    await expect(page.getByText("Souk Atlas", { exact: true })).toBeVisible();
    await expect(page.getByText("DZD 1,250.75")).toBeVisible();
    const { code } = otpPage(page);
    await expect(code).toHaveAttribute("autocomplete", "one-time-code");
    await expect(code).toHaveAttribute("inputmode", "numeric");

    // The result page as the browser received it: it leaves for the merchant within seconds, and
    // on a busy machine page.content() can catch it leaving.
    const resultPage = page.waitForResponse(
      (response) => /\/en\/pay\/return\//.test(response.url()) && response.request().resourceType() === "document",
    );
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Souk Atlas now" })).toBeVisible();
    const shownAt = Date.now();
    // The page itself must not keep the code anywhere: not in its address, not in its HTML.
    const served = await resultPage;
    expect(served.url()).not.toContain(SANDBOX_OTP);
    expect(await served.text()).not.toContain(SANDBOX_OTP);

    await page.waitForURL((url) => url.origin === merchantSite(), { timeout: 4_000 });
    expect(Date.now() - shownAt).toBeLessThan(3_000);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe("/orders/42/done");
    expect(Object.fromEntries(landed.searchParams)).toEqual({ ref: "A1", paymentId, statusCode: "2" });
    // Referrer-Policy: no-referrer keeps the page token away from the merchant.
    await expect(page.locator("#referrer")).toHaveText("");
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });

  test("a RESERVATION payment is authorized and returns statusCode=13", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop, {
      captureMethod: "RESERVATION",
      amount: 80.5,
      currency: "MAD",
      country: "MAR",
    });
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/reserved`));
    await expect(page.getByText("MAD 80.50")).toBeVisible();
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment authorized" })).toBeVisible();
    await page.waitForURL(`${merchantSite()}/reserved?paymentId=${paymentId}&statusCode=13`, { timeout: 4_000 });
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(13);
  });

  test("five wrong codes fail the payment (3), counting attempts down after each", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop);
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/after-failure`));
    const { code } = otpPage(page);

    for (const left of [4, 3, 2]) {
      await submitCode(page, "000000");
      await expect(
        page.getByRole("alert").filter({ hasText: `That code is not correct. ${left} attempts left.` }),
      ).toBeVisible();
      await expect(code).toHaveAccessibleDescription(new RegExp(`^That code is not correct. ${left} attempts left.`));
      await expect(code).toBeFocused();
      await expect(code).toHaveValue("");
      await expect(code).toHaveAttribute("aria-invalid", "true");
    }
    await submitCode(page, "111111");
    await expect(
      page.getByRole("alert").filter({ hasText: "That code is not correct. 1 attempt left." }),
    ).toBeVisible();
    await submitCode(page, "222222");

    await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
    await page.waitForURL(`${merchantSite()}/after-failure?paymentId=${paymentId}&statusCode=3`, { timeout: 4_000 });
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
  });

  test("a code that cannot be right is refused on the page without spending an attempt", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"));
    await page.goto(payUrl);
    await submitCode(page, "12ab");
    await expect(page.getByRole("alert").filter({ hasText: "Enter the code using digits only." })).toBeVisible();
    await submitCode(page, "000000");
    await expect(
      page.getByRole("alert").filter({ hasText: "That code is not correct. 4 attempts left." }),
    ).toBeVisible();
  });

  test("resend waits out its 30 s cooldown, shown as a countdown, and the server holds to it", async ({ page }) => {
    const shop = merchant("resend");
    await freezeTime(page);
    const { payUrl } = await startWalletPayment(shop);
    await page.goto(payUrl);
    const { resend } = otpPage(page);

    await expect(resend).toBeDisabled();
    await expect(page.getByText(/You can ask for a new code in (2\d|30) seconds\./)).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(page.getByText(/You can ask for a new code in (1\d|2[0-5]) seconds\./)).toBeVisible();

    // The browser's clock alone cannot shorten the cooldown: the server refuses and restarts the countdown.
    await page.clock.runFor(30_000);
    await expect(page.getByText("Didn't get the code? You can ask for a new one.")).toBeVisible();
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(
      page.getByRole("status").filter({ hasText: "Please wait a moment before asking for a new code." }),
    ).toBeVisible();
    await expect(resend).toBeDisabled();

    // Once 30 s have passed on the payment's clock, a new code is sent and the cooldown starts over.
    await advanceClock(shop, 31);
    await page.clock.runFor(35_000);
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(page.getByRole("status").filter({ hasText: "We sent you a new code." })).toBeVisible();
    await expect(resend).toBeDisabled();
    await expect(page.getByText(/You can ask for a new code in (2\d|30) seconds\./)).toBeVisible();
    await expect(otpPage(page).code).toBeFocused();

    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
  });

  test("an intent past its lifetime fails (3) with a clear message, and its link no longer asks for a code", async ({
    page,
  }) => {
    const shop = merchant("expiry");
    const { paymentId, payUrl } = await startWalletPayment(shop);
    const link = withReturnUrl(payUrl, `${merchantSite()}/late`);
    await page.goto(link);
    await expect(otpPage(page).code).toBeVisible();

    // 30 minutes of lifetime and the 30 s grace pass on the service's sandbox clock.
    await advanceClock(shop, 30 * 60 + 31);
    await freezeTime(page);
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
    await expect(page.getByText("The time to confirm it ran out, and no money was taken.")).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);

    await page.goto(link);
    await expect(page).toHaveURL(/\/en\/pay\/return\//);
    await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
    await expect(otpPage(page).code).toHaveCount(0);
    await hydrated(page);
    await page.clock.runFor(3_000);
    await page.waitForURL(`${merchantSite()}/late?paymentId=${paymentId}&statusCode=3`);
  });

  test("an expired intent not yet swept shows the expired message instead of the code field", async ({ page }) => {
    const shop = merchant("expiryUnswept");
    const { payUrl } = await startWalletPayment(shop);
    await advanceClock(shop, 30 * 60 + 31);
    await page.goto(payUrl);
    // The expiry sweep (every 5 s) may fail it first; either way the buyer is told it is over.
    const expired = page.getByRole("heading", { level: 1, name: "This payment has expired" });
    const failed = page.getByRole("heading", { level: 1, name: "Payment failed" });
    await expect(expired.or(failed)).toBeVisible();
    await expect(otpPage(page).code).toHaveCount(0);
  });

  test("the return page stays when the merchant has no redirect URL and sent no returnUrl", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("noRedirect"));
    await page.goto(payUrl);
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    await expect(page.getByText("You can close this page now.")).toBeVisible();
    await page.waitForTimeout(3_500);
    await expect(page).toHaveURL(/\/en\/pay\/return\//);
  });

  test("a returnUrl on a foreign origin is ignored for the service's redirect URL (no open redirect)", async ({
    page,
  }) => {
    const { paymentId, payUrl } = await startWalletPayment(merchant("shared"));
    await page.goto(withReturnUrl(payUrl, "https://evil.example/steal"));
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("link", { name: "Return to Souk Atlas now" })).toHaveAttribute(
      "href",
      `${merchantSite()}/orders/return?paymentId=${paymentId}&statusCode=2`,
    );
    await page.waitForURL(`${merchantSite()}/orders/return?paymentId=${paymentId}&statusCode=2`, { timeout: 4_000 });
  });

  test("the buyer can stop the move to the merchant and go later with the link", async ({ page }) => {
    const { paymentId, payUrl } = await startWalletPayment(merchant("shared"));
    await freezeTime(page);
    await page.goto(payUrl);
    await submitCode(page, SANDBOX_OTP);
    await page.getByRole("button", { name: "Stay on this page" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "You can return to Souk Atlas whenever you like." }),
    ).toBeVisible();
    await page.clock.runFor(10_000);
    await expect(page).toHaveURL(/\/pay\/return\//);
    await page.getByRole("link", { name: "Return to Souk Atlas now" }).click();
    await page.waitForURL(`${merchantSite()}/orders/return?paymentId=${paymentId}&statusCode=2`);
  });
});

test.describe("phone and keyboard", () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test("fits a phone screen and completes with the keyboard alone", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"));
    await page.goto(payUrl);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    const { code } = otpPage(page);
    for (
      let presses = 0;
      presses < 15 && !(await code.evaluate((element) => element === document.activeElement));
      presses += 1
    ) {
      await page.keyboard.press("Tab");
    }
    await expect(code).toBeFocused();
    await page.keyboard.type(SANDBOX_OTP);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
  });
});
