import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every journey also proves the CSP holds without breaking the page: a violation or an
 * uncaught script error anywhere fails the test that caused it.
 */
export const test = base.extend<{ browserProblems: string[] }>({
  browserProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
          problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await use(problems);
      expect(problems, "CSP violations or script errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The OTP page's parts, found the way a buyer (and QA, contract 10) finds them. */
export function otpPage(page: Page) {
  return {
    code: page.getByLabel("Verification code"),
    confirm: page.getByRole("button", { name: "Confirm payment" }),
    resend: page.getByRole("button", { name: "Resend code" }),
  };
}

export async function submitCode(page: Page, code: string) {
  const { code: field, confirm } = otpPage(page);
  await field.fill(code);
  await confirm.click();
}

/**
 * Waits until the page's behaviour is live. A hosted page (the hosted lane's: no Next.js runtime)
 * is live once each of its islands (`script[data-island]`, components/island.tsx) has marked
 * itself ready on <html data-islands-ready>, or, with no island, at the load event. A page of
 * Next.js (its scripts under /_next/) is live once React has hydrated it. A test that runs the
 * page's timers on a frozen clock must not run them before they are set.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    if (!document.querySelector('script[src^="/_next/"]')) {
      const ready = (document.documentElement.dataset.islandsReady ?? "").split(" ");
      const islands = [...document.querySelectorAll<HTMLScriptElement>("script[data-island]")].map(
        (script) => script.dataset.island,
      );
      if (islands.length === 0) return document.readyState === "complete";
      return islands.every((name) => name !== undefined && ready.includes(name));
    }
    return Object.keys(document.body).some((key) => key.startsWith("__reactFiber"));
  });
}

/** Stops the page's timers (countdowns, the return page's move) until the test runs them. */
export async function freezeTime(page: Page) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
}
