import { SANDBOX_OTP } from "./support/env";
import { expect, submitCode, test } from "./support/fixtures";
import { merchantSite, startWalletPayment } from "./support/gateway";
import { onboardMerchant } from "./support/onboard";
import { CONSOLE_PASSWORD, inviteThroughCli, newEmail, signUp } from "./support/console";

// Contract 13, Developers: the events of section 12 with their filters, attempts and "Redeliver"; another
// merchant's event is 404.
test("a CLI-invited developer sets the webhook URL, finds a payment's event, sees its attempts, redelivers it", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const shop = await onboardMerchant({ name: `Events Shop ${Date.now()}` });
  const link = await inviteThroughCli(shop.clientId, newEmail("dev"), "developer");

  await page.goto(link);
  await page.getByLabel("Name", { exact: true }).fill("Dev");
  await page.getByLabel("Password", { exact: true }).fill(CONSOLE_PASSWORD);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Developers" }).click();
  await page.getByLabel("Webhook URL").fill(`${merchantSite()}/webhooks`);
  await page.getByRole("button", { name: "Save webhook URL" }).click();
  // The first webhook URL makes the webhook secret, shown once.
  await expect(page.getByLabel("New secret")).toHaveValue(/^whsec_/);

  const buyer = await browser.newPage();
  const { paymentId, payUrl } = await startWalletPayment(shop);
  await buyer.goto(payUrl);
  await submitCode(buyer, SANDBOX_OTP);
  await expect(buyer).toHaveURL(/\/pay\/return\//);
  await buyer.close();

  await page.getByLabel("Payment id").fill(paymentId);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`paymentId=${paymentId}`));
  const rows = page.getByRole("region", { name: "Events" }).getByRole("row");
  await expect(rows).toHaveCount(2); // the header and the payment's one event
  await expect(page.getByRole("cell", { name: "payment.succeeded" })).toBeVisible();
  await rows.nth(1).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: /payment\.succeeded/ })).toBeVisible();
  const eventUrl = page.url();
  await page.getByRole("button", { name: "Redeliver" }).click();
  await expect(page.getByText("One more delivery is on its way.")).toBeVisible();

  // Another merchant's people: that event does not exist for them.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signUp(strangerPage);
  expect((await strangerPage.goto(eventUrl))?.status()).toBe(404);
  await stranger.close();
});
