import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { createTranslator } from "use-intl/core";
import { SANDBOX_OTP } from "./support/env";
import { CONSOLE_PASSWORD, newEmail, rollSecret } from "./support/console";
import { expect, submitCode, test } from "./support/fixtures";
import { startWalletPayment } from "./support/gateway";
import { catalogueOf, type PageLocale } from "./support/messages";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";

// Issue 42 items 6 and 8: on a 390 px phone, every console page in English, French and Arabic
// fits the screen (nothing wider than the viewport, no table running off it), and a French or
// Arabic page, every error its forms can give included, shows no English message and no
// catalogue key. Screenshots of each page land in test-results/console-390/.

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const SHOTS = path.resolve(import.meta.dirname, "../test-results/console-390");
mkdirSync(SHOTS, { recursive: true });

const CATALOGUE = (locale: PageLocale) => catalogueOf(locale, [`console/${locale}.json`]);

/** The console's words of one namespace (console, consolePayments, consoleProblems) in a language. */
function words(
  locale: PageLocale,
  namespace: string,
): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({ locale, messages: CATALOGUE(locale), namespace });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}

/**
 * English a French or Arabic page must never show: the API's rule messages and refusals, raw
 * state names, next-intl's fallback for a missing message (the key's dotted path), and the words
 * the console's English catalogue uses for states and outcomes.
 */
const ENGLISH = [
  /\bmust\b/,
  /\bInvalid\b/i,
  /\bexpected\b/,
  /\bis not\b/,
  /\bNothing was done\b/,
  /\bThe (?:refund|capture|payment|service|request|reservation)\b/,
  /\b(?:PARTIALLY_REFUNDED|SUCCEEDED|PRE_AUTHORIZED|REQUIRES_ACTION|CANCELED|REFUNDED|FAILED|PROCESSING)\b/,
  /\b(?:Partially refunded|Succeeded|Pre-authorized|Failed|Pending|Delivered|No webhook URL)\b/,
  /\b(?:password|authentication code|recovery code)\b/,
  /\b(?:console|consolePayments|consoleProblems|common)\.[A-Za-z_]+(?:\.[A-Za-z_-]+)+/,
];
const ENGLISH_TITLES = new Set([
  "Payments",
  "Payment",
  "Customers",
  "Customer",
  "Event",
  "Console",
  "Invitation",
  "Merchant console",
]);

async function englishOn(page: Page): Promise<string[]> {
  const [body, title] = await Promise.all([page.locator("body").innerText(), page.title()]);
  const found = ENGLISH.flatMap((pattern) => {
    const match = pattern.exec(body);
    return match
      ? [`"${match[0]}" in …${body.slice(Math.max(0, match.index - 40), match.index + 40).replace(/\s+/g, " ")}…`]
      : [];
  });
  if (ENGLISH_TITLES.has(title) || ENGLISH.some((pattern) => pattern.test(title))) found.push(`title "${title}"`);
  return found;
}

/** What runs off a 390 px screen: the page scrolling sideways, or any element wider than the viewport or outside it. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue; // not rendered (a closed disclosure's content)
      // Visually hidden, for screen readers only (a card table's header row): clipped to nothing, never seen.
      let hidden = false;
      for (let at: HTMLElement | null = element; at && !hidden; at = at.parentElement)
        hidden = getComputedStyle(at).clipPath !== "none";
      if (hidden) continue;
      const text = (element.textContent ?? "").trim().slice(0, 40);
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${text}"`;
      if (box.width > width + 1) found.push(`${name} is wider than the screen (${Math.round(box.width)} px)`);
      else if (box.left < -1 || box.right > width + 1)
        found.push(`${name} leaves the screen (${Math.round(box.left)}..${Math.round(box.right)})`);
    }
    return found;
  });
}

/** One page checked: it fits the phone; in French and Arabic, no English; a full-page screenshot kept. */
async function check(page: Page, locale: PageLocale, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}-${locale}.png`), fullPage: true });
  expect(await overflowing(page), `${name} (${locale}) fits 390 px`).toEqual([]);
  if (locale !== "en") expect(await englishOn(page), `${name} (${locale}) has no English`).toEqual([]);
}

/** A wallet payment the buyer completes with the sandbox code. */
async function paid(page: Page, shop: OnboardedMerchant, captureMethod: "DIRECT" | "RESERVATION"): Promise<string> {
  const { paymentId, payUrl } = await startWalletPayment(shop, { captureMethod, amount: 1500 });
  const buyer = await page.context().newPage();
  await buyer.goto(payUrl);
  await submitCode(buyer, SANDBOX_OTP);
  await expect(buyer).toHaveURL(/\/pay\/return\//);
  await buyer.close();
  return paymentId;
}

for (const locale of ["en", "fr", "ar"] as const) {
  test(`every console page fits a 390 px phone, and every form error is in the page's language (${locale})`, async ({
    page,
  }) => {
    // Sign-up, two payments, 20 pages and a dozen refused forms: about two minutes on shared cores.
    test.setTimeout(300_000);
    const t = words(locale, "console");
    const tp = words(locale, "consolePayments");
    const problem = words(locale, "consoleProblems");
    const email = newEmail(`phone-${locale}`);

    await page.goto(`/${locale}/console/sign-in`);
    await page.getByLabel(t("signIn.email"), { exact: true }).fill(email);
    await page.getByLabel(t("signIn.password"), { exact: true }).fill("not the password at all");
    await page.getByRole("button", { name: t("signIn.submit") }).click();
    await expect(page.getByText(t("signIn.refused"))).toBeVisible();
    await check(page, locale, "sign-in-refused");

    await page.goto(`/${locale}/console/sign-up`);
    await page.getByLabel(t("signUp.name"), { exact: true }).fill("Nadia");
    await page.getByLabel(t("signUp.email"), { exact: true }).fill(email);
    await page.getByLabel(t("signUp.password"), { exact: true }).fill(CONSOLE_PASSWORD);
    await page.getByLabel(t("signUp.businessName"), { exact: true }).fill(`Boutique ${locale} ${Date.now()}`);
    await page.getByRole("button", { name: t("signUp.submit") }).click();
    await page.goto(`/${locale}/console/developers`);

    // The menu: one row on a phone, its links behind it, working without a script.
    const menu = page.locator("header details");
    // (Three rows, about 250 px, before the menu.)
    expect((await page.locator("header").boundingBox())!.height).toBeLessThan(150);
    await expect(page.getByRole("navigation", { name: t("nav.label") })).toBeHidden();
    await menu.locator("summary").click();
    await expect(
      page.getByRole("navigation", { name: t("nav.label") }).getByRole("link", { name: t("nav.payments") }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: t("nav.signOut") })).toBeVisible();
    await check(page, locale, "menu-open");

    // Rolling a secret asks first; the confirmation rolls it.
    await page.getByRole("link", { name: t("developers.rollClientSecret"), exact: true }).click();
    await expect(page.getByRole("button", { name: t("developers.confirmRoll.submit") })).toBeVisible();
    await expect(page.getByLabel(t("developers.newSecret"))).toHaveCount(0);
    await check(page, locale, "roll-confirmation");
    await page.getByRole("button", { name: t("developers.confirmRoll.submit") }).click();
    const clientId = await page.getByLabel(t("developers.clientId")).inputValue();
    const shop = {
      clientId,
      clientSecret: await page.getByLabel(t("developers.newSecret")).inputValue(),
      service: clientId.split(".")[1]!,
    } as OnboardedMerchant;
    await check(page, locale, "developers-new-secret");

    const direct = await paid(page, shop, "DIRECT");
    const reserved = await paid(page, shop, "RESERVATION");

    // Events of a merchant without a webhook URL: they say so; redelivering is refused in the page's words.
    const eventLinks = page.locator('#events a[href*="/console/developers/events/"]');
    // The payments' events are written by the outbox's job, a moment after the payment.
    await expect
      .poll(async () => {
        await page.goto(`/${locale}/console/developers?deliveryStatus=`);
        return eventLinks.count();
      })
      .toBeGreaterThan(1);
    await check(page, locale, "events");
    await eventLinks.first().click();
    await page.getByRole("button", { name: t("developers.redeliver") }).click();
    await expect(page.getByText(problem("noWebhookUrl"))).toBeVisible();
    await check(page, locale, "event-redeliver-refused");

    // The webhook URL refused.
    await page.goto(`/${locale}/console/developers`);
    await page.getByLabel(t("developers.webhookUrl")).fill("ftp://shop.example/hook");
    await page.getByRole("button", { name: t("developers.saveWebhook") }).click();
    await expect(page.locator("#webhook-url-error")).toBeVisible();
    await check(page, locale, "webhook-refused");

    // The payments list: results first, the filters behind a disclosure that stays open while one is set.
    await page.goto(`/${locale}/console/payments`);
    const results = page.getByRole("region", { name: tp("list.results") }).first();
    await expect(results).toBeVisible();
    expect((await results.boundingBox())!.y).toBeLessThan(844);
    await expect(page.getByLabel(tp("list.amountFrom"))).toBeHidden();
    await check(page, locale, "payments");
    await page.goto(`/${locale}/console/payments?currency=XYZ&amountFrom=abc&amountTo=-3&createdFrom=yesterday`);
    await expect(page.getByLabel(tp("list.amountFrom"))).toBeVisible();
    await expect(page.getByText(problem("negative"))).toBeVisible();
    await check(page, locale, "payments-filters-refused");
    await page.goto(`/${locale}/console/payments?amountFrom=10,5`);
    await expect(page.getByLabel(tp("list.amountFrom"))).toHaveValue("10,5");
    await expect(results.locator("tbody tr")).toHaveCount(2);

    // A payment, and each refusal of its refund form.
    await page.goto(`/${locale}/console/payments/${direct}`);
    await check(page, locale, "payment");
    for (const [amount, reason, expected] of [
      ["abc", "x", problem("notNumber")],
      ["-5", "x", problem("negative")],
      ["1,234", "x", problem("tooManyDecimals", { count: 2 })],
      ["99999", "x", null],
      ["1", "   ", problem("required")],
    ] as const) {
      await page.goto(`/${locale}/console/payments/${direct}?confirm=refund`);
      await page.getByLabel(tp("detail.amountField"), { exact: true }).fill(amount);
      await page.getByLabel(tp("detail.reason"), { exact: true }).fill(reason);
      await page.getByRole("button", { name: tp("detail.confirm.refund") }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      if (expected) await expect(page.getByText(expected)).toBeVisible();
      await check(page, locale, `refund-refused-${amount.replace(/\W/g, "_")}`);
    }
    await page.goto(`/${locale}/console/payments/${direct}?confirm=refund`);
    await page.getByLabel(tp("detail.amountField"), { exact: true }).fill("10,5");
    await page.getByLabel(tp("detail.reason"), { exact: true }).fill("colis abîmé");
    await page.getByRole("button", { name: tp("detail.confirm.refund") }).click();
    await expect(page.getByText(tp("detail.notices.refund"))).toBeVisible();
    await expect(page.getByText(tp("status.PARTIALLY_REFUNDED")).first()).toBeVisible();
    await check(page, locale, "payment-partially-refunded");

    await page.goto(`/${locale}/console/payments/${reserved}?confirm=capture`);
    await page.getByLabel(tp("detail.amountField"), { exact: true }).fill("99999");
    await page.getByRole("button", { name: tp("detail.confirm.capture") }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await check(page, locale, "capture-refused");
    await page.goto(`/${locale}/console/payments/${direct}?confirm=capture`);
    await check(page, locale, "payment-no-capture");

    await page.locator('a[href*="/console/customers/"]').first().click();
    await check(page, locale, "customer");
    await page.goto(`/${locale}/console/customers?q=%2B213`);
    await check(page, locale, "customers");

    // Payment links: each refusal, then a new link shown near the top.
    await page.goto(`/${locale}/console/payment-links`);
    await check(page, locale, "payment-links");
    for (const [field, value] of [
      ["fields.amount", "-5"],
      ["fields.amount", "12,345"],
      ["fields.maxAmount", "abc"],
    ] as const) {
      await page.goto(`/${locale}/console/payment-links`);
      await page.getByLabel(t("paymentLinks.fields.title"), { exact: true }).fill("Sac");
      await page.getByLabel(t(`paymentLinks.${field}`), { exact: true }).fill(value);
      await page.getByRole("button", { name: t("paymentLinks.createButton"), exact: true }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      await check(page, locale, `payment-link-refused-${value.replace(/\W/g, "_")}`);
    }
    await page.goto(`/${locale}/console/payment-links`);
    await page.getByLabel(t("paymentLinks.fields.title"), { exact: true }).fill(`Sac ${locale}`);
    await page.getByLabel(t("paymentLinks.fields.amount"), { exact: true }).fill("1500,50");
    await page.getByRole("button", { name: t("paymentLinks.createButton"), exact: true }).click();
    const created = page.getByRole("heading", { level: 3, name: `Sac ${locale}` });
    await expect(created).toBeVisible();
    expect((await created.boundingBox())!.y).toBeLessThan(844);
    await check(page, locale, "payment-link-created");

    // Team: an address the console refuses, an invitation, and its cancellation.
    await page.goto(`/${locale}/console/team`);
    await page.getByLabel(t("team.email"), { exact: true }).fill("someone@shop");
    await page.getByRole("button", { name: t("team.invite"), exact: true }).click();
    await expect(page.getByText(t("team.errors.invalidEmail"))).toBeVisible();
    await page.getByLabel(t("team.email"), { exact: true }).fill(newEmail("invitee"));
    await page.getByRole("button", { name: t("team.invite"), exact: true }).click();
    await expect(page.getByLabel(t("team.invitationLink"))).toBeVisible();
    await check(page, locale, "team-invited");
    await page.getByRole("button", { name: t("team.cancelInvitation") }).click();
    await expect(page.getByText(t("team.notices.invitationCanceled"))).toBeVisible();
    await check(page, locale, "team");

    await page.goto(`/${locale}/console/settings`);
    await page.getByLabel(t("settings.redirectUrl"), { exact: true }).fill("ftp://shop.example/back");
    await page.getByRole("button", { name: t("settings.save") }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await check(page, locale, "settings-refused");

    await page.goto(`/${locale}/console/audit-log`);
    await expect(page.getByRole("cell", { name: t("auditLog.actions.invitation_canceled") })).toBeVisible();
    await check(page, locale, "audit-log");

    for (const [name, url] of [
      ["home", `/${locale}/console`],
      ["account", `/${locale}/console/account`],
      ["refused", `/${locale}/console/refused?need=team.manage`],
    ] as const) {
      await page.goto(url);
      await check(page, locale, name);
    }
  });
}
