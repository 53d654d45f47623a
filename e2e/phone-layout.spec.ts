import type { Page } from "@playwright/test";
import { capture } from "./support/accessibility";
import { CARDS, cardPage, enterCard, startCardPayment } from "./support/cards";
import { SANDBOX_OTP } from "./support/env";
import { expect, freezeTime, test } from "./support/fixtures";
import { merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";
import { messagesFor, type PageLocale } from "./support/messages";
import { startQrPayment } from "./support/qr";

// Issue 16 point 6: at a small phone's width (360 px) no button and no text runs past its box
// or past the screen, in French (long words) and Arabic (right to left).

test.use({ viewport: { width: 360, height: 740 } });

const X_LOCALE: Record<PageLocale, string> = { en: "en_US", fr: "fr_FR", ar: "ar_DZ" };

/** Every button, link and text element that overflows its own box or the screen, by its text. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const element of document.body.querySelectorAll<HTMLElement>(
      "button, a, h1, h2, p, dt, dd, label, span, bdi, li",
    )) {
      const box = element.getBoundingClientRect();
      // Hidden, or for screen readers only.
      if (box.width === 0 || getComputedStyle(element).position === "absolute") continue;
      const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
      if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).display !== "inline")
        found.push(`${name} overflows its box`);
      if (box.left < -1 || box.right > width + 1)
        found.push(`${name} leaves the screen (${Math.round(box.left)}..${Math.round(box.right)})`);
    }
    return found;
  });
}

async function expectFits(page: Page, name: string) {
  await capture(page, `phone-360-${name}`);
  expect(await overflowing(page), name).toEqual([]);
}

for (const locale of ["fr", "ar"] as const) {
  const t = messagesFor(locale);

  test(`every hosted page fits a 360 px phone (${locale})`, async ({ page, context }) => {
    test.setTimeout(90_000);
    const shop = merchant("shared");
    const { payUrl } = await startWalletPayment(shop, { xLocale: X_LOCALE[locale] });
    await freezeTime(page);
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/phone/${locale}`));
    await expect(page.getByRole("link", { name: t("otp.backToShop", { merchant: "Souk Atlas" }) })).toBeVisible();
    await expectFits(page, `otp-${locale}`);

    await page.getByLabel(t("otp.codeLabel"), { exact: true }).fill(SANDBOX_OTP);
    await page.getByRole("button", { name: t("otp.confirm"), exact: true }).click();
    await expect(page.getByRole("link", { name: t("return.continue", { merchant: "Souk Atlas" }) })).toBeVisible();
    await expectFits(page, `return-${locale}`);
    // The reference sits under its label on the reading side (the first: the receipt below repeats it).
    const [label, value] = await Promise.all([
      page.getByText(t("common.reference"), { exact: true }).first().boundingBox(),
      page.locator("bdi.font-mono").first().boundingBox(),
    ]);
    if (locale === "ar") expect(Math.abs(label!.x + label!.width - (value!.x + value!.width))).toBeLessThan(2);
    else expect(Math.abs(label!.x - value!.x)).toBeLessThan(2);

    const qr = await startQrPayment(shop, { xLocale: X_LOCALE[locale] });
    await page.goto(qr.qrPageUrl);
    await expect(page.getByRole("link", { name: t("qr.openWalletApp"), exact: true })).toBeVisible();
    await expectFits(page, `qr-${locale}`);
    const walletHref = await page.getByRole("link", { name: t("qr.openWalletApp"), exact: true }).getAttribute("href");
    await page.goto(walletHref!);
    await expect(page.getByText(t("wallet.appName"))).toBeVisible();
    await expectFits(page, `wallet-${locale}`);

    const card = await startCardPayment(shop, { xLocale: X_LOCALE[locale] });
    const phone = await context.newPage();
    await phone.goto(card.payUrl);
    await expect(cardPage(phone, locale).pay).toHaveText(new RegExp(t("card.payAmount", { amount: "" }).trim()));
    await expect(cardPage(phone, locale).expiry).toHaveAttribute("placeholder", t("card.expiryPlaceholder"));
    await expectFits(phone, `card-${locale}`);
    await enterCard(phone, locale, CARDS.threeDSecure);
    await cardPage(phone, locale).pay.click();
    await expect(phone.getByRole("heading", { level: 1, name: t("challenge.title") })).toBeVisible();
    await expect(phone.getByText("Souk Atlas")).toBeVisible();
    await expectFits(phone, `challenge-${locale}`);
  });
}

test("a declined card's return page says the card was declined, as check does", async ({ page }) => {
  const { payUrl } = await startCardPayment(merchant("shared"), {
    xLocale: "en_US",
    redirectUrl: `${merchantSite()}/declined`,
  });
  await freezeTime(page);
  await page.goto(payUrl);
  await enterCard(page, "en", CARDS.declined);
  await cardPage(page, "en").pay.click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
  await expect(page.getByText(/^Your card was declined\./)).toBeVisible();
});

// Issue 14: the API reference and the first-payment guide are read on phones too; wide tables
// and code scroll inside their own box, the page never scrolls sideways.
test("the API reference and the first-payment guide fit a 360 px phone without sideways scrolling", async ({
  page,
}) => {
  for (const path of ["/docs", "/docs/first-payment"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
  }
});
