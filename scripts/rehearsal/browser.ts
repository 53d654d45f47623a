import { chromium, type Browser, type BrowserContext } from "@playwright/test";

export interface RehearsalBrowser {
  /** Opens a hosted OTP page, types the code and confirms; answers the return page's heading. */
  payWithOtp(payUrl: string, code: string): Promise<string>;
  /** Opens the hosted card page, types the card as a buyer and pays; answers the return page's heading. */
  payByCard(payUrl: string, card: { number: string; expiry: string; cvc: string }): Promise<string>;
  /** Opens the page before CMI's, presses Pay (its signed form posts to CMI's gate), pays on CMI's page; answers the return page's heading. */
  payWithCmi(payUrl: string, card: { number: string; expiry: string; cvc: string }): Promise<string>;
  close(): Promise<void>;
}

/**
 * Headless Chromium as the buyer's browser, offline: https://js.stripe.com and
 * https://api.stripe.com are routed to the card simulator, so the production card page (its CSP,
 * its Stripe.js tag, Stripe.js's form-encoded confirm) runs unchanged.
 */
export async function openRehearsalBrowser(cardSimulatorUrl: string): Promise<RehearsalBrowser> {
  const browser: Browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true });
  const context: BrowserContext = await browser.newContext({ locale: "en-US" });
  await context.route(/^https:\/\/(js|api)\.stripe\.com\//, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${cardSimulatorUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
  const outcome = async (page: import("@playwright/test").Page) => {
    const heading = page.getByRole("heading", { level: 1, name: /^Payment (successful|authorized|failed)$/ });
    await heading.waitFor({ timeout: 30_000 });
    return (await heading.textContent())?.trim() ?? "";
  };
  return {
    async payWithOtp(payUrl, code) {
      const page = await context.newPage();
      try {
        await page.goto(payUrl);
        await page.getByLabel("Verification code").fill(code);
        await page.getByRole("button", { name: "Confirm payment" }).click();
        return await outcome(page);
      } finally {
        await page.close();
      }
    },
    async payByCard(payUrl, card) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
      page.on("pageerror", (error) => void problems.push(error.message));
      page.on("requestfailed", (request) => void problems.push(`${request.url()}: ${request.failure()?.errorText}`));
      try {
        await page.goto(payUrl);
        await page.getByLabel("Card number", { exact: true }).fill(card.number);
        await page.getByLabel("Expiry date", { exact: true }).fill(card.expiry);
        await page.getByLabel("CVC", { exact: true }).fill(card.cvc);
        await page.getByRole("button", { name: /^Pay/ }).click();
        return await outcome(page);
      } catch (error) {
        // What the browser saw is what an operator needs to fix the routing or the keys.
        const shown = (
          await page
            .locator("h1, label, [role=alert]")
            .allTextContents()
            .catch(() => [])
        ).join(" | ");
        throw new Error(
          `${error instanceof Error ? error.message.split("\n")[0] : String(error)} on ${page.url()} showing "${shown}"; the page said: ${problems.join("; ") || "nothing"}`,
        );
      } finally {
        await page.close();
      }
    },
    async payWithCmi(payUrl, card) {
      const page = await context.newPage();
      try {
        await page.goto(payUrl);
        await page.getByRole("button", { name: /^Pay/ }).click();
        await page.getByLabel("Card number", { exact: true }).fill(card.number);
        await page.getByLabel("Expiry date", { exact: true }).fill(card.expiry);
        await page.getByLabel("CVC", { exact: true }).fill(card.cvc);
        await page.getByRole("button", { name: /^Pay/ }).click();
        // CMI's page posts its answer with the buyer back to the gateway.
        await page.getByRole("button", { name: "Back to the merchant's site" }).click();
        return await outcome(page);
      } catch (error) {
        const shown = (
          await page
            .locator("h1, label, [role=alert]")
            .allTextContents()
            .catch(() => [])
        ).join(" | ");
        throw new Error(`${error instanceof Error ? error.message.split("\n")[0] : String(error)} on ${page.url()} showing "${shown}"`);
      } finally {
        await page.close();
      }
    },
    close: () => browser.close(),
  };
}
