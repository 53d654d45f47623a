import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { SANDBOX_OTP } from "./support/env";
import { expect, test } from "./support/fixtures";
import {
  CONSOLE_PASSWORD,
  consoleMessagesFor,
  consoleProblemsFor as problems,
  inviteThroughCli,
  newEmail,
  signUp,
} from "./support/console";
import { buyerPhone, checkoutText, methodChoice } from "./support/links";
import type { PageLocale } from "./support/messages";
import { formatAmount } from "../lib/i18n/format-amount";

// Contract 13 and 14: the console's Payment links page, in English and in Arabic (right to left).

const BROWSER_LOCALE: Record<PageLocale, string> = { en: "en-US", fr: "fr-FR", ar: "ar-DZ" };

/** The list's entry of one link, found by its title (its heading). */
function linkItem(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: title, exact: true }) });
}

async function createFixedLink(page: Page, locale: PageLocale, title: string) {
  const t = consoleMessagesFor(locale);
  await page.goto(`/${locale}/console/payment-links`);
  await page.getByLabel(t("paymentLinks.fields.title"), { exact: true }).fill(title);
  await page.getByLabel(t("paymentLinks.fields.amount"), { exact: true }).fill("2500.5");
  await page.getByRole("button", { name: t("paymentLinks.createButton"), exact: true }).click();
  await expect(page.getByText(t("paymentLinks.notices.linkCreated"), { exact: true })).toBeVisible();
}

for (const locale of ["en", "ar"] as const) {
  test.describe(`the console's payment links in ${locale}`, () => {
    const t = consoleMessagesFor(locale);

    test(`create a fixed link, share it, get paid through it, then deactivate it (${locale})`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      await signUp(page, { locale });
      await page
        .getByRole("navigation", { name: t("nav.label") })
        .getByRole("link", { name: t("nav.paymentLinks") })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: t("paymentLinks.title") })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");

      // A refused form says why beside the field and creates nothing.
      await page.getByLabel(t("paymentLinks.fields.title"), { exact: true }).fill("Too precise");
      await page.getByLabel(t("paymentLinks.fields.amount"), { exact: true }).fill("12.345");
      await page.getByRole("button", { name: t("paymentLinks.createButton"), exact: true }).click();
      await expect(page.locator("#amount-error")).toContainText(problems(locale)("tooManyDecimals", { count: 2 }));
      await expect(page.getByLabel(t("paymentLinks.fields.title"), { exact: true })).toHaveValue("Too precise");
      await expect(page.getByText(t("paymentLinks.none"))).toBeVisible();

      const title = `Sac en cuir ${locale} ${Date.now()}`;
      await createFixedLink(page, locale, title);
      const item = linkItem(page, title);
      await expect(item).toContainText(formatAmount({ amount: 2500.5, currency: "DZD", locale }));
      const url = await item.getByLabel(t("paymentLinks.url", { title })).inputValue();
      expect(url).toMatch(/^https?:\/\/[^/]+\/.*plink_[0-9A-Z]{26}/);

      // The QR code downloads as a PNG.
      const download = page.waitForEvent("download");
      await item.getByRole("link", { name: t("paymentLinks.downloadQr") }).click();
      const png = await readFile((await (await download).path())!);
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

      const share = await item.getByRole("link", { name: t("paymentLinks.shareWhatsApp") }).getAttribute("href");
      expect(share).toBe(`https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`);
      const paymentsHref = await item.getByRole("link", { name: t("paymentLinks.payments") }).getAttribute("href");
      expect(paymentsHref).toMatch(new RegExp(`^/${locale}/console/payments\\?paymentLinkId=plink_`));

      // A buyer pays it through its url with the sandbox wallet.
      const buyerContext = await browser.newContext({ locale: BROWSER_LOCALE[locale] });
      const buyer = await buyerContext.newPage();
      const c = checkoutText(locale);
      await buyer.goto(url);
      await buyer.getByLabel(c("paymentLink.phoneLabel"), { exact: true }).fill(buyerPhone());
      await methodChoice(buyer, locale).wallet.check();
      await methodChoice(buyer, locale).continue.click();
      await buyer.getByLabel(c("otp.codeLabel"), { exact: true }).fill(SANDBOX_OTP);
      await buyer.getByRole("button", { name: c("otp.confirm"), exact: true }).click();
      await expect(buyer.getByRole("heading", { level: 1, name: c("return.successful") })).toBeVisible();

      await page.reload();
      const paid = linkItem(page, title);
      const figures = paid.locator("dd");
      await expect(figures.nth(3)).toHaveText("1");
      await expect(figures.nth(4)).toHaveText(formatAmount({ amount: 2500.5, currency: "DZD", locale }));

      // Deactivate, confirmed; the url answers 410 from then on.
      await paid.getByText(t("paymentLinks.deactivate"), { exact: true }).click();
      await paid.getByRole("button", { name: t("paymentLinks.confirmDeactivate") }).click();
      await expect(page.getByText(t("paymentLinks.notices.linkDeactivated"), { exact: true })).toBeVisible();
      await expect(linkItem(page, title)).toContainText(t("paymentLinks.inactive"));
      expect((await buyer.goto(url))?.status()).toBe(410);
      await buyerContext.close();
    });
  });
}

test("a viewer sees the links but no create form and no deactivate", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const t = consoleMessagesFor("en");
  await signUp(page);
  const clientId = await page.getByLabel(t("developers.clientId")).inputValue();
  const title = `Viewer sees ${Date.now()}`;
  await createFixedLink(page, "en", title);

  const inviteUrl = await inviteThroughCli(clientId, newEmail("viewer"), "viewer");
  const context = await browser.newContext({ locale: "en-US" });
  const viewer = await context.newPage();
  await viewer.goto(inviteUrl);
  await viewer.getByLabel("Name", { exact: true }).fill("Vera Viewer");
  await viewer.getByLabel("Password", { exact: true }).fill(CONSOLE_PASSWORD);
  await viewer.getByRole("button", { name: "Accept invitation" }).click();
  await viewer.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Payment links" }).click();
  await expect(linkItem(viewer, title)).toBeVisible();
  await expect(viewer.getByRole("button", { name: t("paymentLinks.createButton") })).toHaveCount(0);
  await expect(viewer.getByLabel(t("paymentLinks.fields.title"), { exact: true })).toHaveCount(0);
  await expect(viewer.getByText(t("paymentLinks.deactivate"), { exact: true })).toHaveCount(0);
  await context.close();
});
