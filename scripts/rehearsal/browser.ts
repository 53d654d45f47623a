import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";

export interface RehearsalBrowser {
  /** Opens a hosted OTP page, types the code and confirms; answers the return page's heading. */
  payWithOtp(payUrl: string, code: string): Promise<string>;
  /** Opens the hosted card page, types the card as a buyer and pays; answers the return page's heading. */
  payByCard(payUrl: string, card: { number: string; expiry: string; cvc: string }): Promise<string>;
  /**
   * Opens the page before CMI's, presses Pay (its signed form posts to CMI's gate), pays on CMI's page;
   * answers the return page's heading.
   */
  payWithCmi(payUrl: string, card: { number: string; expiry: string; cvc: string }): Promise<string>;
  /**
   * Opens the page before SATIM's, checks its terms link, ticks "I accept the terms of payment",
   * waits for the anti-bot check (ALTCHA's proof of work, solved by the page's own script), presses
   * Pay, pays on SATIM's page; answers the return page's heading and SATIM's support line.
   */
  payWithSatim(payUrl: string, card: Card, termsUrl: string): Promise<{ heading: string; support: string }>;
  /** Opens the page before ClicToPay's, presses Pay, pays on ClicToPay's page; answers the return page's heading. */
  payWithClictopay(payUrl: string, card: Card): Promise<string>;
  close(): Promise<void>;
}

type Card = { number: string; expiry: string; cvc: string };

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
  const outcome = async (page: Page) => {
    const heading = page.getByRole("heading", { level: 1, name: /^Payment (successful|authorized|failed)$/ });
    await heading.waitFor({ timeout: 30_000 });
    return (await heading.textContent())?.trim() ?? "";
  };
  /** The provider's (simulated) page, in English: the card typed as a buyer types it, then its Pay button. */
  const fillCard = async (page: Page, card: Card) => {
    await page.getByLabel("Card number", { exact: true }).fill(card.number);
    await page.getByLabel("Expiry date", { exact: true }).fill(card.expiry);
    await page.getByLabel("CVC", { exact: true }).fill(card.cvc);
    await page.getByRole("button", { name: /^Pay/ }).click();
  };
  /** A failed step's error with where the browser was and what it showed. */
  const whatTheBuyerSaw = async (page: Page, error: unknown) => {
    const shown = (
      await page
        .locator("h1, label, [role=alert], [role=status]")
        .allTextContents()
        .catch(() => [])
    ).join(" | ");
    return new Error(
      `${error instanceof Error ? error.message.split("\n")[0] : String(error)} on ${page.url()} showing "${shown}"`,
    );
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
          `${error instanceof Error ? error.message.split("\n")[0] : String(error)} on ${page.url()} ` +
            `showing "${shown}"; the page said: ${problems.join("; ") || "nothing"}`,
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
        throw new Error(
          `${error instanceof Error ? error.message.split("\n")[0] : String(error)} on ${page.url()} ` +
            `showing "${shown}"`,
        );
      } finally {
        await page.close();
      }
    },
    async payWithSatim(payUrl, card, termsUrl) {
      const page = await context.newPage();
      try {
        await page.goto(payUrl);
        const termsLink = await page
          .getByRole("link", { name: "Read the terms of payment (opens a new tab)" })
          .getAttribute("href");
        if (termsLink !== termsUrl)
          throw new Error(`the terms link goes to ${termsLink}, not the merchant's ${termsUrl}`);
        await page.getByRole("checkbox", { name: "I accept the terms of payment" }).check();
        // No code to type where JavaScript runs: the page's island solves the check by itself.
        await page.getByRole("status").filter({ hasText: "Security check passed." }).waitFor({ timeout: 90_000 });
        await page.getByRole("button", { name: /^Pay/ }).click();
        await fillCard(page, card);
        const heading = await outcome(page);
        const support =
          (await page.getByRole("region", { name: "Help with your card payment" }).textContent())
            ?.replace(/\s+/g, " ")
            .trim() ?? "";
        return { heading, support };
      } catch (error) {
        throw await whatTheBuyerSaw(page, error);
      } finally {
        await page.close();
      }
    },
    async payWithClictopay(payUrl, card) {
      const page = await context.newPage();
      try {
        await page.goto(payUrl);
        await page.getByRole("button", { name: /^Pay/ }).click();
        await fillCard(page, card);
        return await outcome(page);
      } catch (error) {
        throw await whatTheBuyerSaw(page, error);
      } finally {
        await page.close();
      }
    },
    close: () => browser.close(),
  };
}
