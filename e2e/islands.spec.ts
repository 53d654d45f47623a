import type { Page } from "@playwright/test";
import { CARDS, cardPage, enterCard, startCardPayment } from "./support/cards";
import { SANDBOX_OTP } from "./support/env";
import { expect, hydrated, otpPage, submitCode, test } from "./support/fixtures";
import { merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";
import { answerQrPayment, qrPage, startQrPayment } from "./support/qr";

// Issue 16, speed on a phone: the hosted pages ship no Next.js/React client runtime; what they
// do in the browser is a few KB of vanilla island (components/islands) each.

/** Every script the page asks for, from now on. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** The page as it is now: no Next.js chunk requested, no RSC payload, and its islands (if any) live. */
async function expectNoClientRuntime(page: Page, scripts: string[], islands: string[]) {
  await hydrated(page);
  expect(scripts.filter((path) => path.startsWith("/_next/static/chunks"))).toEqual([]);
  expect(await page.content()).not.toContain("__next_f");
  const ready = (await page.locator("html").getAttribute("data-islands-ready"))?.split(" ") ?? [];
  expect(ready.sort()).toEqual([...islands].sort());
  for (const name of islands) expect(scripts.some((path) => path.startsWith(`/islands/${name}-`))).toBe(true);
}

test.describe("hosted pages ship no Next.js runtime, and their islands work", () => {
  test("OTP page: the resend countdown runs; the return page moves on to the merchant", async ({ page }) => {
    const scripts = scriptsOf(page);
    const { paymentId, payUrl } = await startWalletPayment(merchant("shared"));
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/islands/otp`));
    await expectNoClientRuntime(page, scripts, ["resend-countdown"]);
    // The island disabled the resend button the server rendered enabled, and counts down.
    await expect(otpPage(page).resend).toBeDisabled();
    await expect(page.getByText(/You can ask for a new code in \d+ seconds?\./)).toBeVisible();

    scripts.length = 0;
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    await expectNoClientRuntime(page, scripts, ["return-redirect", "print-receipt"]);
    await page.waitForURL(`${merchantSite()}/islands/otp?paymentId=${paymentId}&statusCode=2`, { timeout: 6_000 });
  });

  test("the return page that stays ships its receipt's island alone (Print receipt), no runtime", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("noRedirect"));
    await page.goto(payUrl);
    const scripts = scriptsOf(page);
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByText("You can close this page now.")).toBeVisible();
    await expectNoClientRuntime(page, scripts, ["print-receipt"]);
    expect(scripts).toEqual([expect.stringMatching(/^\/islands\/print-receipt-/)]);
  });

  test("QR page: the status poll sees the payment end and moves on; the wallet app page needs no script", async ({
    page,
  }) => {
    const scripts = scriptsOf(page);
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop);
    await page.goto(qrPageUrl);
    await expectNoClientRuntime(page, scripts, ["qr-status"]);

    const walletApp = await page.context().newPage();
    const walletScripts = scriptsOf(walletApp);
    await walletApp.goto(new URL((await qrPage(page).walletAppLink.getAttribute("href"))!, page.url()).toString());
    await expectNoClientRuntime(walletApp, walletScripts, []);
    expect(walletScripts).toEqual([]);
    await walletApp.close();

    await answerQrPayment(shop, paymentId, "approve");
    await expect(qrPage(page).statusSaying("qr.successful")).toBeVisible({ timeout: 10_000 });
    await page.waitForURL(new RegExp(`/en/pay/return/${paymentId}`));
  });

  test("the card provider's 3DS challenge page needs no script", async ({ page }) => {
    const { payUrl } = await startCardPayment(merchant("shared"), { redirectUrl: `${merchantSite()}/islands/3ds` });
    await page.goto(payUrl);
    await enterCard(page, "en", CARDS.threeDSecure);
    await cardPage(page).pay.click();
    await page.waitForURL(/\/card-provider-sandbox\/challenge\/pi_/);
    // Loaded afresh, so no request of the card page before it counts.
    const scripts = scriptsOf(page);
    await page.reload();
    await expect(page.getByRole("button", { name: "Complete", exact: true })).toBeVisible();
    await expectNoClientRuntime(page, scripts, []);
  });

  test("island scripts are cached for good: their names change with their content", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"));
    await page.goto(payUrl);
    const src = await page.locator("script[data-island]").first().getAttribute("src");
    const response = await page.request.get(src!);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
