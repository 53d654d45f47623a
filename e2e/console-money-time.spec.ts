import type { Browser, Page } from "@playwright/test";
import { SANDBOX_OTP } from "./support/env";
import { rollSecret, signUp } from "./support/console";
import { expect, submitCode, test } from "./support/fixtures";
import { startWalletPayment } from "./support/gateway";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";

// Issue 42, items 2, 4 and 7 at 390 px in each language: the money that moved in the list, the
// merchant's time zone (on every time, and its setting refusing a bogus zone beside the field),
// and the search finding a buyer by the national form of the phone, read left to right in Arabic.

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function ownerWithKeys(page: Page): Promise<OnboardedMerchant> {
  await signUp(page);
  await rollSecret(page, "client");
  const clientId = await page.getByLabel("Client id").inputValue();
  const clientSecret = await page.getByLabel("New secret").inputValue();
  return { clientId, clientSecret, service: clientId.split(".")[1]! } as OnboardedMerchant;
}

async function reservedPayment(browser: Browser, shop: OnboardedMerchant): Promise<string> {
  const { paymentId, payUrl } = await startWalletPayment(shop, { captureMethod: "RESERVATION", amount: 1250.75 });
  const buyer = await browser.newPage();
  await buyer.goto(payUrl);
  await submitCode(buyer, SANDBOX_OTP);
  await expect(buyer).toHaveURL(/\/pay\/return\//);
  await buyer.close();
  return paymentId;
}

async function noSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

test("the money that moved, the merchant's time zone and the phone search, in English, French and Arabic", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const shop = await ownerWithKeys(page);
  const paymentId = await reservedPayment(browser, shop);

  // A partial capture, then two partial refunds.
  await page.goto(`/en/console/payments/${paymentId}`);
  await page.getByRole("link", { name: "Capture", exact: true }).click();
  await page.getByLabel("Amount", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Confirm capture" }).click();
  await expect(page.getByText("The payment was captured.")).toBeVisible();
  for (const amount of ["150.25", "49.75"]) {
    await page.getByRole("link", { name: "Refund", exact: true }).click();
    await page.getByLabel("Amount", { exact: true }).fill(amount);
    await page.getByLabel("Reason", { exact: true }).fill("damaged box");
    await page.getByRole("button", { name: "Confirm refund" }).click();
    await expect(page.getByText("The refund was made.")).toBeVisible();
  }
  // The buyer has no name, so the phone is shown once, as the link to the customer.
  const phone = (await page.getByRole("region", { name: "Customer" }).getByRole("link").first().innerText()).trim();

  for (const locale of ["en", "fr", "ar"] as const) {
    await page.goto(`/${locale}/console/payments`);
    const row = page.locator("tr", { has: page.locator(`a[href$="/console/payments/${paymentId}"]`) });
    // Created in Algiers time, its offset named; the captured amount under the asked one.
    await expect(row).toContainText(locale === "ar" ? "غرينتش+1" : locale === "fr" ? "UTC+1" : "GMT+1");
    await expect(row).toContainText(
      locale === "en" ? "Captured DZD 1,000.00" : locale === "fr" ? "Capturé : 1 000,00 DZD" : "المحصَّل:",
    );
    await noSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/money-payments-${locale}.png`, fullPage: true });

    // The buyer's number as support hears it: the national form with its trunk 0.
    const national = `0${phone.replace(/^\+213/, "").replace(/(\d{3})(\d{2})(\d{2})(\d{2})/, "$1 $2 $3 $4")}`;
    await page.locator("input#q").fill(national);
    await expect(page.locator("input#q")).toHaveAttribute("dir", "auto");
    expect(await page.locator("input#q").evaluate((input) => getComputedStyle(input).direction)).toBe("ltr");
    await page.locator("input#q").press("Enter");
    await expect(page.locator(`a[href$="/console/payments/${paymentId}"]`)).toHaveCount(1);
    await page.screenshot({ path: `test-results/screenshots/money-phone-search-${locale}.png`, fullPage: true });

    await page.goto(`/${locale}/console/customers?q=${encodeURIComponent(national)}`);
    await expect(page.locator('a[href*="/console/customers/"]')).toHaveCount(1);

    // The time zone: a bogus one is refused beside its field, in the page's language.
    await page.goto(`/${locale}/console/settings`);
    await page.locator("input#time-zone").fill("Mars/Olympus");
    await page.locator("input#time-zone").press("Enter");
    await expect(page.locator("#time-zone-error")).toBeVisible();
    await expect(page.locator("#time-zone-error")).toContainText("IANA");
    await noSidewaysScroll(page);
    await page.locator("#time-zone-error").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/money-time-zone-${locale}.png`, fullPage: true });
  }

  // An owner's choice moves every time: Tokyo is UTC+9.
  await page.goto("/en/console/settings");
  await page.locator("input#time-zone").fill("Asia/Tokyo");
  await page.locator("input#time-zone").press("Enter");
  await expect(page.getByText("Time zone saved.")).toBeVisible();
  await page.goto(`/en/console/payments/${paymentId}`);
  await expect(page.getByText(/GMT\+9/).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/money-payment-tokyo-en.png", fullPage: true });
});
