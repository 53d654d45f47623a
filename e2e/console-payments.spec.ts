import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { BASE_URL, SANDBOX_OTP } from "./support/env";
import { CONSOLE_PASSWORD, newEmail, rollSecret, signUp } from "./support/console";
import { expect, submitCode, test } from "./support/fixtures";
import { startWalletPayment } from "./support/gateway";
import { CARDS, cardPage, checkCardPayment, enterCard, startCardPayment } from "./support/cards";
import type { OnboardedMerchant } from "../lib/merchants/onboard-merchant.schema";

// Contract 13: the console's payments, as a merchant's owner, support and viewer use them.

/** A new owner and merchant, and the merchant's keys (the Developers page shows a rolled secret once). */
async function ownerWithKeys(page: Page): Promise<{ email: string; shop: OnboardedMerchant }> {
  const { email } = await signUp(page);
  await rollSecret(page, "client");
  const clientId = await page.getByLabel("Client id").inputValue();
  const clientSecret = await page.getByLabel("New secret").inputValue();
  return { email, shop: { clientId, clientSecret, service: clientId.split(".")[1]! } as OnboardedMerchant };
}

/** A wallet payment the buyer completes on the OTP page: SUCCEEDED, or PRE_AUTHORIZED for a reservation. */
async function paidPayment(
  browser: Browser,
  shop: OnboardedMerchant,
  captureMethod: "DIRECT" | "RESERVATION" = "DIRECT",
): Promise<string> {
  const { paymentId, payUrl } = await startWalletPayment(shop, { captureMethod });
  const buyer = await browser.newPage();
  await buyer.goto(payUrl);
  await submitCode(buyer, SANDBOX_OTP);
  await expect(buyer).toHaveURL(/\/pay\/return\//);
  await buyer.close();
  return paymentId;
}

const rowOf = (page: Page, paymentId: string) =>
  page.locator("tr", { has: page.locator(`a[href$="/console/payments/${paymentId}"]`) });

async function search(page: Page, text: string) {
  await page.goto("/en/console/payments");
  await page.getByLabel("Search", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Apply" }).click();
}

async function refund(page: Page, paymentId: string, amount: string, reason: string) {
  await page.goto(`/en/console/payments/${paymentId}`);
  await page.getByRole("link", { name: "Refund", exact: true }).click();
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByLabel("Reason", { exact: true }).fill(reason);
  await page.getByRole("button", { name: "Confirm refund" }).click();
}

/** Accepts an invitation the owner makes on the Team page, in a browser of its own. */
async function invitedMember(page: Page, browser: Browser, role: "Support" | "Viewer"): Promise<Page> {
  await page.goto("/en/console/team");
  await page.getByLabel("Email", { exact: true }).fill(newEmail(role.toLowerCase()));
  await page.getByLabel("Role").selectOption({ label: role });
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  const member = await (await browser.newContext({ locale: "en-US", baseURL: BASE_URL })).newPage();
  await member.goto(link);
  await member.getByLabel("Name", { exact: true }).fill(`A ${role}`);
  await member.getByLabel("Password", { exact: true }).fill(CONSOLE_PASSWORD);
  await member.getByRole("button", { name: "Accept invitation" }).click();
  await expect(
    member.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Payments" }),
  ).toBeVisible();
  return member;
}

test("an owner finds a payment each way, refunds, captures, releases, exports; another merchant gets 404", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { email, shop } = await ownerWithKeys(page);
  const paid = await paidPayment(browser, shop);
  const toCapture = await paidPayment(browser, shop, "RESERVATION");
  const toRelease = await paidPayment(browser, shop, "RESERVATION");

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Payments" }).click();
  await expect(rowOf(page, paid)).toContainText("Succeeded");
  const cells = rowOf(page, paid).getByRole("cell");
  const phone = (await cells.nth(4).innerText()).trim();
  const actionId = (await cells.nth(5).innerText()).trim();
  // The phone as the buyer says it too: the national form with its trunk 0, spaced ("0555 12 34 56").
  const national = `0${phone.slice(4, 7)} ${phone.slice(7, 9)} ${phone.slice(9, 11)} ${phone.slice(11)}`;
  for (const term of [paid, actionId, phone, phone.slice(1), national]) {
    await search(page, term);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, paid)).toHaveCount(1);
  }

  await refund(page, paid, "250.75", "damaged box");
  await expect(page.getByText("The refund was made.")).toBeVisible();
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline.getByRole("listitem").last()).toContainText("Partially refunded");
  await expect(timeline.getByRole("listitem").last()).toContainText(email);
  await expect(
    page.getByRole("region", { name: "Events" }).first().getByRole("cell", { name: "payment.refunded" }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Refunds" }).first()).toContainText("damaged box");

  // A refund above what is left is refused beside the field, with nothing done.
  await refund(page, paid, "5000", "too much");
  // In the page's words, naming what is left (the API's English message is not shown).
  await expect(
    page.getByText(/^Nothing was done: the amount is above what can still be refunded \(.*1,000\.00.*\)\.$/),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Refunds" }).first().getByRole("row")).toHaveCount(2);

  await page.goto(`/en/console/payments/${toCapture}`);
  await page.getByRole("link", { name: "Capture", exact: true }).click();
  await page.getByRole("button", { name: "Confirm capture" }).click();
  await expect(page.getByText("The payment was captured.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Timeline" }).getByRole("listitem").last()).toContainText("Succeeded");

  await page.goto(`/en/console/payments/${toRelease}`);
  await page.getByRole("link", { name: "Release", exact: true }).click();
  await page.getByRole("button", { name: "Confirm release" }).click();
  await expect(page.getByText("The reservation was released.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Timeline" }).getByRole("listitem").last()).toContainText("Released");

  await page.goto("/en/console/payments?status=SUCCEEDED&status=PARTIALLY_REFUNDED");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await readFile((await (await downloading).path())!, "utf8");
  const lines = file.trimEnd().split("\r\n");
  // A UTF-8 byte order mark first, for Excel (docs/console-payments.md, "The CSV's columns").
  expect(lines[0]).toBe(
    "\uFEFFcreated,paymentId,actionId,amount,captured,refunded,net,currency," +
      "status,statusCode,method,cardBrand,cardLast4,customerName,customerPhone",
  );
  expect(
    lines
      .slice(1)
      .map((line) => line.split(",")[1])
      .sort(),
  ).toEqual([paid, toCapture].sort());
  // Asked 1250.75, captured 1250.75, refunded 250.75, net 1000.00.
  expect(lines.find((line) => line.includes(paid))).toContain(",1250.75,1250.75,250.75,1000.00,DZD,");

  // The fourth search: a card's last 4 (a Mastercard ending 4444, paid on the hosted card page).
  const card = await startCardPayment(shop, { amount: 310 });
  const buyer = await browser.newPage();
  await buyer.goto(card.payUrl);
  await enterCard(buyer, "en", CARDS.mastercard);
  await cardPage(buyer, "en").pay.click();
  await expect(buyer).toHaveURL(/\/pay\/return\//);
  await buyer.close();
  expect((await checkCardPayment(shop, card.paymentId)).statusCode).toBe(2);
  await search(page, "4444");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(rowOf(page, card.paymentId)).toContainText("4444");

  const other = await (await browser.newContext({ locale: "en-US", baseURL: BASE_URL })).newPage();
  await signUp(other);
  expect((await other.goto(`/en/console/payments/${paid}`))?.status()).toBe(404);
  await other.context().close();
});

test("a support member refunds; a viewer sees the payment but no refund", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { shop } = await ownerWithKeys(page);
  const paymentId = await paidPayment(browser, shop);
  const support = await invitedMember(page, browser, "Support");
  await refund(support, paymentId, "", "returned");
  await expect(support.getByText("The refund was made.")).toBeVisible();
  await expect(support.getByRole("region", { name: "Timeline" }).getByRole("listitem").last()).toContainText(
    "Refunded",
  );

  const viewer = await invitedMember(page, browser, "Viewer");
  await viewer.goto(`/en/console/payments/${paymentId}`);
  await expect(viewer.getByRole("region", { name: "Timeline" })).toBeVisible();
  await expect(viewer.getByRole("link", { name: "Refund", exact: true })).toHaveCount(0);
  await viewer.goto(`/en/console/payments/${paymentId}?confirm=refund`);
  await expect(viewer.getByRole("button", { name: "Confirm refund" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the refund journey works with plain forms", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const { email, shop } = await ownerWithKeys(page);
    const paymentId = await paidPayment(browser, shop);
    await refund(page, paymentId, "100", "late delivery");
    await expect(page.getByText("The refund was made.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Timeline" }).getByRole("listitem").last()).toContainText(email);
  });
});
