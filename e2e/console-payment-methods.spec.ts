import type { Page } from "@playwright/test";
import { consoleMessagesFor, signUp } from "./support/console";
import { expect, test } from "./support/fixtures";

// Issues 43 and 44: an owner sets the card rails' credentials in Settings "Payment methods" on a
// 390 px phone, in English and in Arabic, and tests the connection through the provider's
// adapter (the sandbox's simulators answer). A password is never shown back.

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function noSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

test("an owner sets SATIM's and ClicToPay's credentials and tests the connection, in en and ar at 390 px", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page);

  const en = consoleMessagesFor("en");
  await page.goto("/en/console/settings");
  await expect(page.getByRole("heading", { level: 2, name: en("settings.methods.title") })).toBeVisible();
  const satim = page.getByRole("region", { name: "CIB / EDAHABIA (SATIM)" });
  await satim.getByLabel(en("settings.methods.fields.satimTerminalId"), { exact: true }).fill("E010900000");
  await satim.getByLabel(en("settings.methods.fields.satimUserName"), { exact: true }).fill("SANDBOX_MERCHANT");
  await satim.getByLabel(en("settings.methods.fields.satimPassword"), { exact: true }).fill("sandbox-password");
  await satim.getByRole("button", { name: en("settings.methods.save") }).click();
  await expect(page).toHaveURL(/\/en\/console\/settings#method-satim$/);
  await expect(satim.getByRole("status")).toHaveText(
    `${en("settings.methods.saved")} ${en("settings.methods.connection.ok")}`,
  );
  // Never shown back: the field is empty, the page says it is set and when it changed.
  await expect(satim.getByLabel(en("settings.methods.fields.satimPassword"), { exact: true })).toHaveValue("");
  await expect(satim).toContainText(en("settings.methods.secretSet"));
  await expect(satim).toContainText(/Last changed .* GMT\+1\./);
  expect(await page.content()).not.toContain("sandbox-password");
  await noSidewaysScroll(page);
  await satim.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/settings-payment-methods-saved-en.png", fullPage: true });

  // Wrong credentials are told apart by the provider's answer, beside the form.
  const clictopay = page.getByRole("region", { name: "ClicToPay (CLICTOPAY)" });
  await clictopay
    .getByLabel(en("settings.methods.fields.clictopayUserName"), { exact: true })
    .fill("SANDBOX_CTP_MERCHANT");
  await clictopay.getByLabel(en("settings.methods.fields.clictopayPassword"), { exact: true }).fill("not-the-password");
  await clictopay.getByRole("button", { name: en("settings.methods.save") }).click();
  await expect(clictopay.getByRole("alert")).toContainText(en("settings.methods.connection.wrong_credentials"));
  await clictopay.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/settings-payment-methods-wrong-en.png", fullPage: false });

  const ar = consoleMessagesFor("ar");
  await page.goto("/ar/console/settings");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 2, name: ar("settings.methods.title") })).toBeVisible();
  const satimAr = page.getByRole("region", { name: "CIB / الذهبية (SATIM)" });
  await expect(satimAr.getByLabel(ar("settings.methods.fields.satimTerminalId"), { exact: true })).toHaveValue(
    "E010900000",
  );
  await satimAr.getByRole("button", { name: ar("settings.methods.test") }).click();
  await expect(page).toHaveURL(/\/ar\/console\/settings#method-satim$/);
  await expect(satimAr.getByRole("status")).toHaveText(ar("settings.methods.connection.ok"));
  await expect(satimAr).toContainText("غرينتش+1");
  await noSidewaysScroll(page);
  await satimAr.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/settings-payment-methods-test-ar.png", fullPage: false });
  await page.screenshot({ path: "test-results/screenshots/settings-payment-methods-ar.png", fullPage: true });
});
